import ArgumentParser
import PriceWatchConfig
import PriceWatchCore
import PriceWatchProviders

/// `pricewatch backtest --rules PATH --data CSV [--format text|json]`
struct Backtest: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run rules over historical prices and print the alerts that would have fired.",
        discussion: "Needs no main file: a rule's provider and notify are not checked. Uses the daemon's own engine.")

    @Option(help: ArgumentHelp("A rule file or a directory of rule files.", valueName: "path"))
    var rules: String

    @Option(help: ArgumentHelp("Prices in the backtest CSV format (symbol,time,price[,previous_close][,currency]).", valueName: "csv"))
    var data: String

    @Option(help: "Output format: text, or json for JSON Lines.")
    var format: OutputFormat = .text

    func run() throws {
        let (rules, ruleDiagnostics) = ConfigurationLoader.loadRules(at: self.rules)
        let validRules = ruleDiagnostics.containsErrors ? nil : rules
        // Rows stream from the file through the engine; alerts wait in the spool until the file
        // has been read whole (valid and in time order, or sorted).
        var spool = SpooledOutput()
        var backtest = validRules.map { BacktestRun(rules: $0) }
        let format = format
        let outcome = PriceSeriesStream.forEachRowInTimeOrder(
            path: data,
            restart: {
                spool.discard()
                backtest = validRules.map { BacktestRun(rules: $0) }
            },
            row: { row, symbols, currencies in
                backtest?.process(row, symbols: symbols, currencies: currencies) { alert in
                    switch format {
                    case .text: spool.line(AlertRendering.textLine(alert))
                    case .json: spool.line(AlertRendering.jsonLine(alert))
                    }
                }
            })
        let diagnostics = ruleDiagnostics + outcome.diagnostics
        StandardOutput.report(diagnostics)
        guard let rules, let summary = backtest?.summary, !diagnostics.containsErrors else {
            throw ExitCode(1)
        }
        spool.writeToStandardOutput()
        var errorStream = StandardOutput.error()
        errorStream.line("backtest: \(summary.rows) rows, \(rules.count) rules, \(summary.evaluations) evaluations, \(summary.alerts) alerts")
        errorStream.flush()
    }
}
