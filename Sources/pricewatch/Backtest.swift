import ArgumentParser
import PriceWatchApp
import PriceWatchCore

/// `pricewatch backtest --rules PATH --data CSV [--format text|json]`
struct Backtest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backtest",
        abstract: "Run rules over historical prices and print the alerts that would have fired.",
        discussion: "Needs no main file: a rule's provider and notify are not checked. Uses the daemon's own engine.")

    @Option(help: ArgumentHelp("A rule file or a directory of rule files.", valueName: "path"), completion: .file(extensions: ["toml"]))
    var rules: String

    @Option(help: ArgumentHelp("Prices in the backtest CSV format (symbol,time,price[,previous_close][,currency]).", valueName: "csv"),
            completion: .file(extensions: ["csv"]))
    var data: String

    @Option(help: "Output format: text, or json for JSON Lines.")
    var format: OutputFormat = .text

    @OptionGroup var timeZone: TimeZoneOption

    func validate() throws {
        try timeZone.refuseMarket("backtest")
    }

    func run() throws {
        // Alerts wait in the spool until the file has been read whole (valid and in time
        // order, or sorted): a late bad row or disorder never leaves partial output.
        var spool = SpooledOutput()
        let format = format
        let zone = timeZone.zone
        let outcome = RunBacktest.run(rulesPath: rules, dataPath: data, report: StandardOutput.report,
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
