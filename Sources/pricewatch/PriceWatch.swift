import ArgumentParser
import PriceWatchCore

/// The `pricewatch` command: the daemon and its tools. Each subcommand only parses arguments
/// and wires library code together.
@main
struct PriceWatch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pricewatch",
        abstract: "Price alerts for stocks, crypto and currencies.",
        discussion: """
            Exit codes: 0 success; 1 the command ran and found errors (bad configuration, failed \
            fetch, malformed data); 64 usage error; 65 the daemon stops because its state database is \
            unusable (damaged, emptied, or from a newer version); 78 the daemon refuses to start because its \
            configuration is invalid.
            """,
        version: PriceWatchVersion.current,
        subcommands: [
            Run.self, Check.self, Backtest.self, QuoteCommand.self, SearchCommand.self, Alerts.self, Requeue.self,
            RulesCommand.self, NotifyTest.self, MarketCommand.self, HistoryCommand.self, WatchCommand.self, Paper.self, SilenceCommand.self,
            DigestCommand.self, FXCommand.self, PortfolioCommand.self, NewsCommand.self, EventsCommand.self,
        ]
    )
}
