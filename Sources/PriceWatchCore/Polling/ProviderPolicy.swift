/// The polling policy of one provider, as a pure state machine: whether to ask it at all this
/// poll, whether to retry a failed batch, and which symbols to leave out because the service
/// does not know them.
///
/// Decisions (documented in docs/operations.md, "Operating notes"):
/// - A failed batch is retried with ``PollBackoff`` (at most ``PollBackoff/maximumAttempts``
///   attempts) only for retryable errors, and only when the retry starts before the next poll;
///   otherwise it is dropped: the next poll asks again anyway.
/// - Once a batch has failed for good, the provider is *failing*: the rest of the poll's
///   symbols go to its fallbacks. While failing, each poll *probes* it with one batch and no
///   retries; a probe that answers ends the episode and the poll goes on normally.
/// - A `Retry-After` is obeyed: no request before it has passed (the fallbacks serve meanwhile).
/// - A symbol the service answers as unknown ``unknownSymbolLimit`` times in a row is *parked*:
///   left out of batches and asked again once every ``unknownSymbolRecheck``.
///
/// Time is an offset from any fixed origin on a monotonic clock.
public struct ProviderPolicy: Sendable, Hashable {
    public var backoff: PollBackoff
    /// Consecutive unknown answers after which a symbol is parked.
    public var unknownSymbolLimit: Int
    /// How often a parked symbol is asked again.
    public var unknownSymbolRecheck: Duration

    /// Whether the last batch sent to the provider failed for good.
    public private(set) var isFailing = false
    /// No request before this time (the service's `Retry-After`).
    public private(set) var blockedUntil: Duration?
    private var unknown: [String: UnknownSymbol] = [:]

    struct UnknownSymbol: Sendable, Hashable {
        var count: Int
        var parkedUntil: Duration?
    }

    /// How the provider may be asked in a poll.
    public enum Access: Sendable, Hashable {
        /// Every batch, with retries.
        case normal
        /// One batch, no retry: the provider is failing.
        case probe
        /// Not at all before `until` (`Retry-After`).
        case blocked(until: Duration)
    }

    /// What to do after a failed attempt.
    public enum FailureDecision: Sendable, Hashable {
        case retry(after: Duration)
        /// Stop for this poll: the provider is failing.
        case giveUp
    }

    /// A change in a symbol's standing with the provider, to log once.
    public enum SymbolEvent: Sendable, Hashable {
        /// The symbol was answered as unknown `count` times in a row and is now asked only
        /// once every ``ProviderPolicy/unknownSymbolRecheck``.
        case parked(symbol: String, count: Int, reason: String)
        /// A parked symbol was quoted again.
        case recognized(symbol: String)
    }

    public init(backoff: PollBackoff = PollBackoff(), unknownSymbolLimit: Int = 3, unknownSymbolRecheck: Duration = .seconds(3_600)) {
        self.backoff = backoff
        self.unknownSymbolLimit = max(unknownSymbolLimit, 1)
        self.unknownSymbolRecheck = unknownSymbolRecheck
    }

    /// How the provider may be asked in a poll starting at `now`.
    public func access(at now: Duration) -> Access {
        if let blockedUntil, now < blockedUntil { return .blocked(until: blockedUntil) }
        return isFailing ? .probe : .normal
    }

    /// The symbols to ask for at `now`: all but the parked ones whose recheck is not due, in
    /// the given order.
    public func symbolsToFetch(_ symbols: [String], at now: Duration) -> [String] {
        symbols.filter { symbol in
            guard let parkedUntil = unknown[symbol]?.parkedUntil else { return true }
            return now >= parkedUntil
        }
    }

    /// Whether `symbol` is parked at `now`.
    public func isParked(_ symbol: String, at now: Duration) -> Bool {
        guard let parkedUntil = unknown[symbol]?.parkedUntil else { return false }
        return now < parkedUntil
    }

    /// Decides after attempt number `attempt` (1 for the first) of a batch failed with `error`
    /// at `now`, when the next poll starts at `nextPoll`. `random` is a jitter draw in `0..<1`.
    public mutating func afterFailure(_ error: ProviderError, attempt: Int, now: Duration, nextPoll: Duration,
                                      random: Double) -> FailureDecision {
        if let retryAfter = backoff.retryAfter(error.retryAfterSeconds) { blockedUntil = now + retryAfter }
        // A probe of a failing provider is not retried: the fallbacks serve this poll.
        if error.isRetryable, !isFailing, attempt < backoff.maximumAttempts {
            let delay = backoff.delay(afterAttempt: attempt, retryAfterSeconds: error.retryAfterSeconds, random: random)
            if now + delay < nextPoll { return .retry(after: delay) }
        }
        isFailing = true
        return .giveUp
    }

    /// The provider answered a request: the failing episode, if any, is over.
    public mutating func afterSuccess() {
        isFailing = false
        blockedUntil = nil
    }

    /// Records the per-symbol answers to a request for `asked` at `now` and returns what
    /// changed: symbols parked after too many unknown answers, parked symbols quoted again.
    public mutating func record(_ answers: [String: Result<Quote, ProviderError>], asked: [String], at now: Duration) -> [SymbolEvent] {
        var events: [SymbolEvent] = []
        for symbol in asked {
            switch answers[symbol] {
            case .failure(let error) where error.kind == .unknownSymbol:
                var entry = unknown[symbol] ?? UnknownSymbol(count: 0, parkedUntil: nil)
                entry.count += 1
                if entry.count >= unknownSymbolLimit {
                    entry.parkedUntil = now + unknownSymbolRecheck
                    if entry.count == unknownSymbolLimit {
                        events.append(.parked(symbol: symbol, count: entry.count, reason: error.message))
                    }
                }
                unknown[symbol] = entry
            case .success:
                if let entry = unknown.removeValue(forKey: symbol), entry.count >= unknownSymbolLimit {
                    events.append(.recognized(symbol: symbol))
                }
            case .failure, nil:
                break
            }
        }
        return events
    }
}
