/// Portfolio rules over the quote stream (docs/portfolios.md, "Portfolio rules"): the latest
/// price of every holding and the latest rate of every currency pair the watched portfolios
/// need, a valuation of each portfolio whose inputs changed, and its figures evaluated by the
/// same ``AlertEngine`` and ``RuleStateMachine`` as prices, so `rearm`, `cooldown`, `once` and
/// `expires` mean what they mean for a price.
///
/// A figure is evaluated only when the whole valuation is known: a holding without a price, a
/// stale price (``PriceFreshness``, at the newest input) or a missing rate leaves the portfolio's rules unevaluated,
/// never evaluated on a partial total. The figure's time is the newest of its inputs, so the
/// same inputs never evaluate twice.
///
/// Pure and synchronous, like ``AlertEngine``: quotes, the instant and the calendars are given.
public struct PortfolioRuleEngine: Sendable {
    private var engine: AlertEngine
    private let portfolios: [String: Portfolio]
    /// Per needed symbol, the portfolios that need it.
    private let neededBy: [String: [String]]
    /// Per portfolio, its rules' slots: (rule index, source index).
    private let targets: [String: [(rule: Rule, source: Int)]]
    private var prices: [String: PortfolioValuation.Price] = [:]
    private var rates: [String: ExchangeRate] = [:]
    private var touched: Set<String> = []
    /// Per portfolio, why its rules are not being evaluated (for one log line per change).
    private var incomplete: [String: String] = [:]

    /// What one evaluation did.
    public struct Outcome: Sendable {
        public var alerts: [PendingAlert] = []
        public var suppressed: [RuleStateKey] = []
        /// Portfolios whose rules stopped (with the reason) or resumed (nil) being evaluated.
        public var changes: [(portfolio: String, reason: String?)] = []
    }

    /// - Parameters:
    ///   - rules: the portfolio rules (each with ``Rule/portfolio`` set and its subject as its
    ///     one symbol); rules naming a portfolio not in `portfolios` are left out.
    ///   - previous: an engine whose prices and rates carry over (a reload).
    public init(rules: [Rule], portfolios: [Portfolio], storedStates: [RuleStateKey: StoredRuleState] = [:],
                carryingOver previous: PortfolioRuleEngine? = nil) {
        let byName = Dictionary(portfolios.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let watched = rules.filter { $0.portfolio.map { byName[$0.portfolio] != nil } ?? false }
        let book = RuleBook(rules: watched)
        engine = AlertEngine(book: book, storedStates: storedStates, trackChanges: true)
        var targets: [String: [(rule: Rule, source: Int)]] = [:]
        for rule in watched {
            guard let target = rule.portfolio, let provider = rule.provider,
                  let source = book.index(of: QuoteSource(provider: provider, symbol: target.subject)) else { continue }
            targets[target.portfolio, default: []].append((rule, source))
        }
        var neededBy: [String: [String]] = [:]
        for name in targets.keys.sorted() {
            guard let portfolio = byName[name] else { continue }
            for symbol in PortfolioWatchlist.symbols(of: portfolio) { neededBy[symbol, default: []].append(name) }
        }
        self.portfolios = byName
        self.targets = targets
        self.neededBy = neededBy
        if let previous {
            prices = previous.prices.filter { neededBy[$0.key] != nil }
            rates = previous.rates.filter { neededBy[$0.key] != nil }
            touched = Set(targets.keys)
        }
    }

    /// Whether any portfolio rule is watched.
    public var isEmpty: Bool { targets.isEmpty }

    /// Starts from stored quotes (a daemon's start): the newest of each needed symbol is known,
    /// so an older quote (a replay from its first row) is a repeat, as it is for a price rule.
    /// Nothing is evaluated until a newer quote comes.
    public mutating func seed(_ quotes: [QuoteSource: Quote]) {
        for (key, quote) in quotes.sorted(by: { ($0.value.time, $0.key.provider) < ($1.value.time, $1.key.provider) }) {
            record(quote, provider: key.provider)
        }
        touched.removeAll()
    }

    /// Whether a watched portfolio needs quotes of `symbol` (a holding or a currency pair).
    public func needs(_ symbol: String) -> Bool { neededBy[symbol] != nil }

    /// Takes a quote (from any provider) of a holding or a currency pair; returns whether it was
    /// needed and newer than the one known. A price of zero or below is not taken.
    @discardableResult
    public mutating func record(_ quote: Quote, provider: String) -> Bool {
        guard let names = neededBy[quote.symbol], quote.price.isPositive else { return false }
        if let pair = CurrencyPairSymbol(symbol: quote.symbol) {
            if let known = rates[quote.symbol], known.time >= quote.time { return false }
            rates[quote.symbol] = pair.rate(from: quote, provider: provider)
        } else {
            if let known = prices[quote.symbol], known.time >= quote.time { return false }
            prices[quote.symbol] = PortfolioValuation.Price(price: quote.price, previousClose: quote.previousClose,
                                                            currency: quote.currency, time: quote.time, provider: provider)
        }
        touched.formUnion(names)
        return true
    }

    /// Values every portfolio whose inputs changed since the last call and evaluates its rules.
    ///
    /// Staleness is judged at the portfolio's newest price or rate, not at the wall clock: a
    /// holding is stale when its market has traded for longer than `stale_after` between its
    /// price and the newest input. A replay, or a provider that lags by minutes, is valued as
    /// it was then; a holding whose quotes stopped while the others moved is left out.
    public mutating func evaluate(freshness: PriceFreshness) -> Outcome {
        var outcome = Outcome()
        for name in touched.sorted() {
            guard let portfolio = portfolios[name], let rules = targets[name] else { continue }
            // The newest of the portfolio's prices and rates: the valuation's instant and the
            // figure's time, so the same inputs never evaluate twice.
            let inputs = PortfolioWatchlist.symbols(of: portfolio)
            let now = inputs.compactMap { prices[$0]?.time ?? rates[$0]?.time }.max() ?? Timestamp(milliseconds: 0)
            let book = ExchangeRateBook(Array(rates.values))
            let valuation = PortfolioValuation.value(portfolio, prices: prices, now: now, isStale: { symbol, price in
                freshness.isStale(symbol: symbol, time: price.time, now: now)
            }, rate: { from, to in book.convert(from: from, to: to, at: now) })
            let reason = valuation.firstExclusion
            if incomplete[name] != reason {
                if reason != nil || incomplete[name] != nil { outcome.changes.append((name, reason)) }
                incomplete[name] = reason
            }
            guard reason == nil else { continue }
            for (rule, source) in rules {
                guard let target = rule.portfolio, let figure = target.figure(in: valuation) else { continue }
                let quote = Quote(symbol: target.subject, price: figure, time: now,
                                  currency: target.measure.isMoney ? portfolio.currency : nil)
                let result = engine.process(quote, source: source, provider: rule.provider, now: nil, requirePositivePrice: false)
                outcome.alerts += result.alerts
                outcome.suppressed += result.suppressed
            }
        }
        touched.removeAll(keepingCapacity: true)
        return outcome
    }

    /// The states changed since the last drain, keyed for the store.
    public mutating func drainChangedStates() -> [RuleStateKey: StoredRuleState] { engine.drainChangedStates() }
}
