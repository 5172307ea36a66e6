import PriceWatchConfig
import PriceWatchCore
import PriceWatchProviders

/// `pricewatch backtest`: rules over a price series, through the daemon's own engine. Rows
/// stream from the file in time order; a file out of order is read again and sorted in bounded
/// memory (``PriceSeriesStream``), so memory grows with symbols and windows, not rows.
public enum RunBacktest {
    /// What a backtest did.
    public struct Outcome: Sendable {
        public var summary: Backtester.Summary
        public var ruleCount: Int
    }

    /// Reads the rules at `rulesPath` and streams the CSV at `dataPath` through them, handing
    /// each alert to `onAlert` in firing order. `restart` is called when the file turned out to
    /// be out of order and is read again, sorted: the alerts handed out so far are void. Nil when
    /// either file has errors (found only once the file has been read whole, so alerts must be
    /// held until this returns); `report` gets every diagnostic.
    public static func run(rulesPath: String, dataPath: String, report: ([Diagnostic]) -> Void,
                           restart: () -> Void, onAlert: (Alert) -> Void) -> Outcome? {
        let (rules, ruleDiagnostics) = ConfigurationLoader.loadRules(at: rulesPath)
        let validRules = ruleDiagnostics.containsErrors ? nil : rules
        var backtest = validRules.map { BacktestRun(rules: $0) }
        let outcome = PriceSeriesStream.forEachRowInTimeOrder(
            path: dataPath,
            restart: {
                restart()
                backtest = validRules.map { BacktestRun(rules: $0) }
            },
            row: { row, symbols, currencies in
                backtest?.process(row, symbols: symbols, currencies: currencies, onAlert: onAlert)
            })
        let diagnostics = ruleDiagnostics + outcome.diagnostics
        report(diagnostics)
        guard let rules, let summary = backtest?.summary, !diagnostics.containsErrors else { return nil }
        return Outcome(summary: summary, ruleCount: rules.count)
    }
}
