import ArgumentParser
import FoundationEssentials
import PriceWatchApp
import PriceWatchCore

/// `pricewatch events [--all] [SYMBOL...]`: the earnings, ex-dividend, payment and split dates
/// the daemon read for its calendar rules, from the state database.
struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "List the earnings, dividend and split dates the daemon read for its calendar rules.",
        discussion: """
            Reads the state database named by the main file (its `state` key only), opened \
            read-only, so it works while the daemon runs. The daemon reads each source's calendar of \
            each symbol a calendar rule watches at most once a day (docs/events.md). Upcoming events \
            are listed, by date, with their source; --all lists past ones too. A symbol with \
            nothing known says so ('no events known for ASML'): dates are never guessed.
            """)

    @OptionGroup var config: ConfigOption

    @Flag(help: "Also list events whose day has passed.")
    var all = false

    @Option(help: "Output format: text or json (JSON Lines, one object per event).")
    var format: OutputFormat = .text

    @Argument(help: "Only these symbols.")
    var symbols: [String] = []

    func run() async throws {
        let events: [CompanyEvent]
        switch await ReadCompanyEvents.read(configPath: config.path, symbols: symbols, report: StandardOutput.report) {
        case .configurationFailed: throw ExitCode(1)
        case .failed(let error): throw StandardOutput.failure("error: \(error)")
        case .read(let read): events = read
        }
        let today = CivilDate(utcDateOf: Timestamp(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded())))
        let shown = all ? events : events.filter { ($0.lastDate ?? $0.date) >= today }
        var output = StandardOutput.output()
        for event in shown {
            switch format {
            case .text:
                output.line("\(event.date)  \(ControlCharacters.escaped(event.symbol))  \(ControlCharacters.escaped(event.text))  [\(event.source)]")
            case .json:
                output.line(event.json())
            }
        }
        for symbol in symbols where !shown.contains(where: { $0.symbol == symbol }) {
            output.line("no events known for \(ControlCharacters.escaped(symbol))")
        }
        if symbols.isEmpty && shown.isEmpty { output.line("no events known") }
        output.flush()
    }
}
