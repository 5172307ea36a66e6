import ArgumentParser
import Foundation
import PriceWatchApp
import PriceWatchCore
import PriceWatchPresentation

/// `pricewatch backtest --rules PATH (--data CSV | --symbol S… [--since 1y] [--provider NAME])
/// [--format text|json]`
struct Backtest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backtest",
        abstract: "Run rules over historical prices and print the alerts that would have fired.",
        discussion: """
            Needs no main file: a rule's provider and notify are not checked. Uses the daemon's own engine.             With --symbol instead of --data, the history is fetched from a provider's chart endpoint             (the main file's provider, or the keyless yahoo without a main file) at the candle width the             rules' timeframes need (days for price rules).
            """)

    @Option(help: ArgumentHelp("A rule file or a directory of rule files.", valueName: "path"), completion: .file(extensions: ["toml"]))
    var rules: String

    @Option(help: ArgumentHelp("Prices in the backtest CSV format (symbol,time,price[,previous_close][,currency]).", valueName: "csv"),
            completion: .file(extensions: ["csv"]))
    var data: String?

    @Option(name: .customLong("symbol"), help: ArgumentHelp("Fetch this symbol's history instead of --data (repeat for more).",
                                                            valueName: "symbol"))
    var symbols: [String] = []

    @Option(help: ArgumentHelp("How far back to fetch with --symbol: days, weeks, months or years (30d, 12w, 6mo, 2y).",
                               valueName: "span"))
    var since: String = "1y"

    @Option(help: ArgumentHelp("The provider to fetch from with --symbol (default: the main file's).", valueName: "name"))
    var provider: String?

    @OptionGroup var config: ConfigOption

    @Option(help: "Output format: text, or json for JSON Lines.")
    var format: OutputFormat = .text

    @OptionGroup var timeZone: TimeZoneOption

    func validate() throws {
        try timeZone.refuseMarket("backtest")
        switch (data, symbols.isEmpty) {
        case (nil, true): throw ValidationError("expected --data FILE or --symbol SYMBOL")
        case (.some, false): throw ValidationError("--data and --symbol are both given; use one of them")
        default: break
        }
        if Self.days(in: since) == nil {
            throw ValidationError("--since: expected a span such as '30d', '12w', '6mo' or '2y', found '\(since)'")
        }
    }

    /// `30d`, `12w`, `6mo`, `2y` in days (a month is 31 days, a year 366: enough to cover it).
    static func days(in span: String) -> Int? {
        let units: [(String, Int)] = [("mo", 31), ("d", 1), ("w", 7), ("y", 366)]
        for (unit, days) in units where span.hasSuffix(unit) {
            guard let count = Int(span.dropLast(unit.count)), count > 0, count <= 100 * 366 / days else { return nil }
            return count * days
        }
        return nil
    }

    func run() async throws {
        var dataPath = data ?? ""
        if data == nil {
            let interval = FetchBacktestHistory.interval(rulesAt: rules)
            let environment = ProcessInfo.processInfo.environment
            switch await FetchBacktestHistory.fetch(symbols: symbols, days: Self.days(in: since) ?? 366, interval: interval,
                                                    requested: provider, configPath: config.path, environment: environment,
                                                    builtInWhenAbsent: config.isDefault, now: Alerts.now(),
                                                    report: StandardOutput.report) {
            case .configurationFailed: throw ExitCode.failure
            case .failed(let line): throw StandardOutput.failure("backtest: error: \(line)")
            case .written(let path, let counts, let provider):
                dataPath = path
                var errors = StandardOutput.error()
                for (symbol, count) in counts { errors.line("backtest: \(symbol): \(count) \(interval) candles from provider '\(provider)'") }
                errors.flush()
            }
        }
        defer { if data == nil { try? FileManager.default.removeItem(atPath: dataPath) } }
        // Alerts wait in the spool until the file has been read whole (valid and in time
        // order, or sorted): a late bad row or disorder never leaves partial output.
        var spool = SpooledOutput()
        let format = format
        let zone = timeZone.zone
        let outcome = RunBacktest.run(rulesPath: rules, dataPath: dataPath, report: StandardOutput.report,
                                      restart: { spool.discard() }) { alert in
            switch format {
            case .text: spool.line(AlertRendering.textLine(alert, zone: zone))
            case .json: spool.line(AlertRendering.jsonLine(alert))
            }
        }
        guard let outcome else { throw ExitCode(1) }
        spool.writeToStandardOutput()
        let summary = outcome.summary
        var errorStream = StandardOutput.error()
        errorStream.line("backtest: \(summary.rows) rows, \(outcome.ruleCount) rules, \(summary.evaluations) evaluations, \(summary.alerts) alerts")
        errorStream.flush()
    }
}
