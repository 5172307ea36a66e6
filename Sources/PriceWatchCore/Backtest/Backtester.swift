/// Runs rules over a price series with the same ``AlertEngine`` the daemon uses.
///
/// Every rule applies to its symbols whatever its `provider` says (backtests have no
/// providers), rows are processed in time order, and quote times play the role of the clock
/// for `cooldown` and `expires`, so a backtest of recorded data gives exactly the alerts the
/// daemon would have given live.
public enum Backtester {
    /// Counts from one run.
    public struct Summary: Sendable, Hashable {
        public var rows = 0
        /// Rows for a watched symbol that the engine accepted.
        public var accepted = 0
        /// Rows whose time was not later than the previous row of the symbol.
        public var repeats = 0
        /// Rule evaluations: accepted rows times the rules evaluated quote by quote on their
        /// symbol, plus the technical rules evaluated on bars (each bar close, and each quote
        /// for `trigger = "tick"`).
        public var evaluations = 0
        public var alerts = 0
    }

    /// The name used as every rule's provider during a backtest.
    static let provider = "backtest"

    /// Processes every row of a series held in memory; `onAlert` receives each alert in firing
    /// order. The streaming backtest (``BacktestRun`` fed in time order from the file) gives
    /// the same alerts; this is its reference.
    public static func run(rules: [Rule], series: PriceSeries, onAlert: (Alert) -> Void) -> Summary {
        var run = BacktestRun(rules: rules)
        for row in series.timeOrder {
            run.process(series.row(at: row), symbols: series.symbols, currencies: series.currencies, onAlert: onAlert)
        }
        return run.summary
    }
}
