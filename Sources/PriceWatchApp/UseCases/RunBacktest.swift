import PriceWatchConfig
import PriceWatchCore
import PriceWatchProviders

/// `pricewatch backtest`: rules over a price series, through the daemon's own engine.
public enum RunBacktest {
    /// What a backtest did.
    public struct Outcome: Sendable {
        public var summary: Backtester.Summary
        public var ruleCount: Int
    }

    /// Reads the rules at `rulesPath` and the CSV at `dataPath` and replays them, handing each
    /// alert to `onAlert` in firing order. Nil when either has errors; `report` gets every
    /// diagnostic first.
    public static func run(rulesPath: String, dataPath: String, report: ([Diagnostic]) -> Void,
                           onAlert: (Alert) -> Void) -> Outcome? {
        let (rules, ruleDiagnostics) = ConfigurationLoader.loadRules(at: rulesPath)
        let (series, dataDiagnostics) = PriceSeriesFile.read(path: dataPath)
        report(ruleDiagnostics + dataDiagnostics)
        guard let rules, let series, !(ruleDiagnostics + dataDiagnostics).containsErrors else { return nil }
        let summary = Backtester.run(rules: rules, series: series, onAlert: onAlert)
        return Outcome(summary: summary, ruleCount: rules.count)
    }
}
