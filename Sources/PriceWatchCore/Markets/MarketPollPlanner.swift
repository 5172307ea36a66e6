/// Decides, at each poll tick, which of a provider's symbols to fetch given their markets'
/// hours: market-aware polling. Pure: the caller passes the instant; the planner remembers only
/// which closed periods it has already polled once and what it skipped.
///
/// The rules:
///
/// - A symbol whose market is open is fetched at every tick (so the first tick at or after the
///   open fetches it: the opening poll).
/// - A symbol whose market is closed is fetched at the first tick of each closed period (a
///   night, a weekend, a holiday, a lunch break) and then not again until the market opens:
///   that one poll brings the closing price. A closed period is told apart from the next by
///   the instant it ends (``MarketStatus/closed(until:)``); a daemon that starts while a
///   market is closed fetches its symbols once.
/// - A symbol whose market is unknown (``MarketHours/market(ofSymbol:exchange:)`` answers nil
///   and no override names one) is always fetched: knowing nothing never stops polling.
///
/// Each market's change between open and closed is reported once, as a ``Change``, with the
/// number of symbol fetches saved while it was closed: the log line, never one per tick.
public struct MarketPollPlanner: Sendable {
    /// One tick's decision.
    public struct Plan: Sendable, Hashable {
        /// The symbols to fetch now, in the order the planner was given them.
        public var fetch: [String]
        /// The symbols whose market is closed now (fetched or not): nothing new is expected of
        /// them, so data health does not count their silence.
        public var closed: Set<String>
        /// Markets that opened or closed since the previous tick.
        public var changes: [Change]
    }

    /// A market seen opening or closing.
    public enum Change: Sendable, Hashable {
        /// The market closed; its `symbols` get one closing poll and then rest until `nextOpen`.
        case closed(MarketIdentifier, symbols: Int, nextOpen: Timestamp?)
        /// The market opened after a closed period in which `savedFetches` symbol fetches were
        /// not made (the ticks times the symbols, less the closing poll).
        case opened(MarketIdentifier, symbols: Int, savedFetches: Int)
    }

    private let hours: any MarketHours
    /// The symbols in order with their market (nil: unknown, always fetched).
    private var symbols: [(symbol: String, market: MarketIdentifier?)]
    /// How many symbols have no market yet and have not brought an exchange code: they are
    /// resolved from the first code their quotes carry, once.
    public private(set) var unresolvedCount = 0
    /// Per symbol, whether it still waits for an exchange code to resolve its market.
    private var awaitingExchange: [Bool] = []
    private var markets: [MarketIdentifier: MarketState] = [:]
    /// Symbol fetches not made since the planner started, over all markets.
    public private(set) var savedFetches = 0

    private struct MarketState: Sendable {
        var symbols: Int
        /// Whether the market was open at the previous tick (nil before the first).
        var wasOpen: Bool?
        /// The end of the closed period whose closing poll was made.
        var polledClosedPeriod: Timestamp??
        var savedSinceClose = 0
    }

    /// - Parameters:
    ///   - symbols: the provider's symbols, in polling order.
    ///   - overrides: a market per symbol that wins over what `hours` resolves (a rule's
    ///     `market = "XNYS"`).
    ///   - hours: the calendars.
    public init(symbols: [String], overrides: [String: MarketIdentifier] = [:], hours: any MarketHours) {
        self.hours = hours
        self.symbols = symbols.map { symbol in (symbol, overrides[symbol] ?? hours.market(ofSymbol: symbol, exchange: nil)) }
        awaitingExchange = self.symbols.map { $0.market == nil }
        for (_, market) in self.symbols {
            guard let market else { unresolvedCount += 1; continue }
            markets[market, default: MarketState(symbols: 0)].symbols += 1
        }
    }

    /// Resolves the symbols whose market the symbol alone did not tell, from the exchange
    /// codes their quotes carried (a bare `AAPL` quoted on `NMS` trades on XNAS). Called after
    /// a poll. Each symbol is tried once, with the first code it brings: one the calendars do
    /// not know leaves the symbol always polled, and it is not looked at again.
    public mutating func learn(exchanges: [String: String]) {
        guard unresolvedCount > 0, !exchanges.isEmpty else { return }
        for index in symbols.indices where awaitingExchange[index] {
            guard let exchange = exchanges[symbols[index].symbol] else { continue }
            awaitingExchange[index] = false
            unresolvedCount -= 1
            guard let market = hours.market(ofSymbol: symbols[index].symbol, exchange: exchange) else { continue }
            symbols[index].market = market
            markets[market, default: MarketState(symbols: 0)].symbols += 1
        }
    }

    /// The market each symbol was resolved to (nil: unknown).
    public func market(of symbol: String) -> MarketIdentifier? {
        symbols.first { $0.symbol == symbol }?.market
    }

    /// The decision for the tick at `now`.
    public mutating func plan(at now: Timestamp) -> Plan {
        var fetchMarket: [MarketIdentifier: Bool] = [:]
        var changes: [Change] = []
        for market in markets.keys.sorted() {
            guard var state = markets[market] else { continue }
            let status = hours.status(of: market, at: now)
            switch status {
            case .open:
                if state.wasOpen == false {
                    changes.append(.opened(market, symbols: state.symbols, savedFetches: state.savedSinceClose))
                }
                state.wasOpen = true
                state.polledClosedPeriod = nil
                state.savedSinceClose = 0
                fetchMarket[market] = true
            case .closed(let until):
                if state.wasOpen != false {
                    changes.append(.closed(market, symbols: state.symbols, nextOpen: until))
                }
                state.wasOpen = false
                if case .some(let polled) = state.polledClosedPeriod, polled == until {
                    fetchMarket[market] = false
                    state.savedSinceClose += state.symbols
                    savedFetches += state.symbols
                } else {
                    state.polledClosedPeriod = .some(until)
                    fetchMarket[market] = true
                }
            }
            markets[market] = state
        }
        var plan = Plan(fetch: [], closed: [], changes: changes)
        plan.fetch.reserveCapacity(symbols.count)
        for (symbol, market) in symbols {
            guard let market else {
                plan.fetch.append(symbol)
                continue
            }
            if markets[market]?.wasOpen == false { plan.closed.insert(symbol) }
            if fetchMarket[market] ?? true { plan.fetch.append(symbol) }
        }
        return plan
    }
}
