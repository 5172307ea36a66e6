import ArgumentParser
import PriceWatchConfig
import PriceWatchCore
import PriceWatchProviders

/// `pricewatch backtest --rules PATH --data CSV [--format text|json]`
struct Backtest: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run rules over historical prices and print the alerts that would have fired.",
        discussion: "Needs no main file: a rule's provider and notify are not checked. Uses the daemon's own engine.")

    @Option(help: ArgumentHelp("A rule file or a directory of rule files.", valueName: "path"), completion: .file(extensions: ["toml"]))
    var rules: String

    @Option(help: ArgumentHelp("Prices in the backtest CSV format (symbol,time,price[,previous_close][,currency]).", valueName: "csv"),
            completion: .file(extensions: ["csv"]))
    var data: String

    @Option(help: "Output format: text, or json for JSON Lines.")
    var format: OutputFormat = .text

    func run() throws {
        let (rules, ruleDiagnostics) = ConfigurationLoader.loadRules(at: self.rules)
        let (series, dataDiagnostics) = PriceSeriesFile.read(path: data)
        StandardOutput.report(ruleDiagnostics + dataDiagnostics)
        guard let rules, let series, !(ruleDiagnostics + dataDiagnostics).containsErrors else {
            throw ExitCode(1)
        }
        var output = StandardOutput.output()
        let summary = Backtester.run(rules: rules, series: series) { alert in
            switch format {
            case .text: output.line(AlertRendering.textLine(alert))
            case .json: output.line(AlertRendering.jsonLine(alert))
            }
        }
        output.flush()
        var errorStream = StandardOutput.error()
        errorStream.line("backtest: \(summary.rows) rows, \(rules.count) rules, \(summary.evaluations) evaluations, \(summary.alerts) alerts")
        errorStream.flush()
    }
}
