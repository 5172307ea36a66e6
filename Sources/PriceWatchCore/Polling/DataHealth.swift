/// Watches one provider's data for the log: a provider that has failed several polls in a
/// row, a symbol with no fresh quote for too long. Pure; returns events, one when an episode
/// starts and one when it ends, never one per poll.
///
/// - A poll *fails* when some batch could not be fetched from the provider (after its retries)
///   or the provider was not asked because of its `Retry-After`.
/// - A symbol is *fresh* when a poll brought a new quote the engine accepted, from the provider
///   or a fallback. Staleness is not counted while the last quote says the market is not in
///   regular trading (`marketState` other than `REGULAR`/`OPEN`), nor while the symbol is parked
///   as unknown (that has its own log line): the clock restarts when the market reopens.
///
/// Time is an offset from any fixed origin on a monotonic clock.
public struct DataHealth: Sendable, Hashable {
    /// How long a symbol may go without a fresh quote before a warning.
    public let staleAfter: Duration
    /// Failed polls in a row before a warning.
    public let failureWarningAfter: Int

    private var failedPolls = 0
    private var providerWarned = false
    private var symbols: [String: SymbolState]

    struct SymbolState: Sendable, Hashable {
        /// Since when the symbol has waited for a fresh quote (last fresh quote, start, or the
        /// last time its market was seen closed).
        var waitingSince: Duration
        var warned = false
        var reason = "the provider has returned no quote for it yet"
    }

    /// What a symbol's poll brought.
    public enum Observation: Sendable, Hashable {
        /// A new quote, accepted.
        case fresh
        /// Nothing new, and why (a repeated quote, an error, nothing at all).
        case notFresh(reason: String)
        /// The market is not in regular trading, or the symbol is parked: nothing is expected.
        case notExpected
    }

    /// A change worth one log line.
    public enum Event: Sendable, Hashable {
        /// The provider has now failed `consecutivePolls` polls in a row; `reason` is the last error.
        case providerFailing(consecutivePolls: Int, reason: String)
        /// The provider answered after `failedPolls` failed polls (reported only after a warning).
        case providerRecovered(failedPolls: Int)
        /// No fresh quote for `age`; `reason` says what the polls brought instead.
        case symbolStale(symbol: String, age: Duration, reason: String)
        /// A fresh quote again, after `age` without one.
        case symbolFresh(symbol: String, age: Duration)
    }

    /// Starts watching `symbols` at `now`.
    public init(symbols: [String], staleAfter: Duration, failureWarningAfter: Int, now: Duration) {
        self.staleAfter = staleAfter
        self.failureWarningAfter = max(failureWarningAfter, 1)
        self.symbols = Dictionary(symbols.map { ($0, SymbolState(waitingSince: now)) }, uniquingKeysWith: { first, _ in first })
    }

    /// Records the end of a poll of the provider itself: `failure` is its last error, nil when
    /// every batch it was asked for was answered.
    public mutating func pollFinished(failure: String?) -> Event? {
        guard let failure else {
            defer {
                failedPolls = 0
                providerWarned = false
            }
            return providerWarned ? .providerRecovered(failedPolls: failedPolls) : nil
        }
        failedPolls += 1
        guard !providerWarned, failedPolls >= failureWarningAfter else { return nil }
        providerWarned = true
        return .providerFailing(consecutivePolls: failedPolls, reason: failure)
    }

    /// Records what a poll brought for `symbol` at `now`; returns the recovery event when the
    /// symbol had been reported stale.
    public mutating func observe(_ symbol: String, _ observation: Observation, at now: Duration) -> Event? {
        var state = symbols[symbol] ?? SymbolState(waitingSince: now)
        defer { symbols[symbol] = state }
        switch observation {
        case .fresh:
            let age = now - state.waitingSince
            let wasWarned = state.warned
            state = SymbolState(waitingSince: now, reason: "no poll has brought a new quote")
            return wasWarned ? .symbolFresh(symbol: symbol, age: age) : nil
        case .notFresh(let reason):
            state.reason = reason
            return nil
        case .notExpected:
            state.waitingSince = now
            return nil
        }
    }

    /// The symbols that have now gone `staleAfter` or longer without a fresh quote and were
    /// not reported yet, sorted by symbol.
    public mutating func staleSymbols(at now: Duration) -> [Event] {
        var stale: [(symbol: String, state: SymbolState)] = []
        for (symbol, state) in symbols where !state.warned && now - state.waitingSince >= staleAfter {
            stale.append((symbol, state))
        }
        stale.sort { $0.symbol < $1.symbol }
        for (symbol, _) in stale { symbols[symbol]?.warned = true }
        return stale.map { .symbolStale(symbol: $0.symbol, age: now - $0.state.waitingSince, reason: $0.state.reason) }
    }

    /// Whether a quote's `marketState` means regular trading (or says nothing).
    public static func isTrading(_ marketState: String?) -> Bool {
        guard let marketState else { return true }
        let state = UppercaseText.uppercased(marketState)
        return state == "REGULAR" || state == "OPEN"
    }
}
