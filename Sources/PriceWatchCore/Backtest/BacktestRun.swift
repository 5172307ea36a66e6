/// A backtest in progress: rows go in one at a time, in time order, and alerts come out as
/// they fire. Memory grows with symbols and windows (the engine's states and histories), not
/// with rows, so any number of rows streams through it.
///
/// ``Backtester/run(rules:series:onAlert:)`` drives it over a series held in memory; the
/// `backtest` command drives it straight from the file (``PriceRow``s in time order).
public struct BacktestRun {
    private let book: RuleBook
    private var engine: AlertEngine
    /// Per symbol of the reader's table: its source in the book (-1: no rule watches it).
    /// Grows as the reader meets new symbols.
    private var sourceBySymbol: [Int] = []
    public private(set) var summary = Backtester.Summary()

    public init(rules: [Rule]) {
        book = RuleBook(rules: rules, provider: Backtester.provider)
        engine = AlertEngine(book: book)
    }

    /// Processes one row; `symbols` and `currencies` are the tables its indexes refer to.
    /// Rows must come in time order (equal times in file order), as the daemon sees quotes.
    public mutating func process(_ row: PriceRow, symbols: [String], currencies: [String], onAlert: (Alert) throws -> Void) rethrows {
        summary.rows += 1
        let symbol = Int(row.symbol)
        while sourceBySymbol.count <= symbol {
            let name = symbols[sourceBySymbol.count]
            sourceBySymbol.append(book.index(of: QuoteSource(provider: Backtester.provider, symbol: name)) ?? -1)
        }
        let source = sourceBySymbol[symbol]
        guard source >= 0 else { return }
        let outcome = engine.process(row.quote(symbols: symbols, currencies: currencies), source: source, provider: nil, now: nil)
        switch outcome.acceptance {
        case .accepted:
            summary.accepted += 1
            summary.evaluations += book.slotCount(ofSource: source) + outcome.barEvaluations
        case .repeated:
            summary.repeats += 1
        case .rejected:
            break
        }
        for pending in outcome.alerts {
            summary.alerts += 1
            try onAlert(pending.alert)
        }
    }
}
