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
        /// Rule evaluations: accepted rows times the rules on their symbol.
        public var evaluations = 0
        public var alerts = 0
    }

    /// The name used as every rule's provider during a backtest.
    static let provider = "backtest"

    /// Processes every row; `onAlert` receives each alert in firing order.
    public static func run(rules: [Rule], series: PriceSeries, onAlert: (Alert) -> Void) -> Summary {
        let book = RuleBook(rules: rules, provider: provider)
        var engine = AlertEngine(book: book)
        let sourceBySymbol: [Int?] = series.symbols.map { book.index(of: QuoteSource(provider: provider, symbol: $0)) }
        let rulesPerSource = book.sources.indices.map { book.slotsBySource[$0].count }
        var summary = Summary()
        summary.rows = series.count
        for row in series.timeOrder {
            guard let source = sourceBySymbol[series.symbolID(at: row)] else { continue }
            let outcome = engine.process(series.quote(at: row), source: source, provider: nil, now: nil)
            switch outcome.acceptance {
            case .accepted:
                summary.accepted += 1
                summary.evaluations += rulesPerSource[source]
            case .repeated:
                summary.repeats += 1
            case .rejected:
                break
            }
            for pending in outcome.alerts {
                summary.alerts += 1
                onAlert(pending.alert)
            }
        }
        return summary
    }
}
