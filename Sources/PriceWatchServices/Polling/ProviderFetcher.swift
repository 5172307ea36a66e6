import Logging
import PriceWatchCore
import Synchronization

/// One provider's fetch of a poll, under the polling policy (``ProviderPolicy``): batches as
/// large as the provider takes, its rate limit, retries with backoff that never run into the
/// next poll, failover to the configured fallbacks, and parking of symbols the service does not
/// know. Returns what it got as a value (``Outcome``); it evaluates nothing.
///
/// It logs the policy's episodes: one line when a failing episode starts and one when it ends,
/// parked and recognized symbols, retries and per-symbol errors at debug level.
public final class ProviderFetcher<C: Clock<Duration>>: Sendable {
    /// A provider this fetcher turns to, in order, for the symbols its own provider could not
    /// fetch in a poll.
    public struct Fallback: Sendable {
        public let provider: any QuoteProvider
        /// The fallback's own rate limit, shared with its own poller.
        public let limiter: RateLimiter<C>?

        public init(provider: any QuoteProvider, limiter: RateLimiter<C>? = nil) {
            self.provider = provider
            self.limiter = limiter
        }
    }

    /// What one poll's fetch brought.
    public struct Outcome: Sendable {
        /// Each answered symbol's quote or error, from the provider or a fallback.
        public var answers: [String: Result<Quote, ProviderError>] = [:]
        /// Per symbol, the fallback that served it.
        public var servedBy: [String: String] = [:]
        /// The provider's failure (after `attempts` attempts; 0: not asked, `Retry-After`).
        public var failure: (error: ProviderError, attempts: Int)?
        /// Symbols the provider did not answer (some may have been served by a fallback).
        public var unserved: [String] = []
    }

    public let provider: any QuoteProvider
    let clock: C
    let logger: Logger
    let limiter: RateLimiter<C>?
    let fallbacks: [Fallback]
    let settings: PollingSettings
    /// A jitter draw in `0..<1` for retry delays.
    let random: @Sendable () -> Double
    private let origin: C.Instant
    private let state: Mutex<State>

    private struct State {
        var policy: ProviderPolicy
        /// Whether the last poll failed (for the failover log lines).
        var failingEpisode = false
    }

    /// - Parameters:
    ///   - logger: carries the provider's metadata already.
    ///   - origin: the instant the policy's times are measured from.
    public init(provider: any QuoteProvider, clock: C, origin: C.Instant, logger: Logger, limiter: RateLimiter<C>? = nil,
                fallbacks: [Fallback] = [], settings: PollingSettings = PollingSettings(),
                random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        self.provider = provider
        self.clock = clock
        self.origin = origin
        self.logger = logger
        self.limiter = limiter
        self.fallbacks = fallbacks
        self.settings = settings
        self.random = random
        self.state = Mutex(State(policy: settings.makePolicy()))
    }

    /// The symbols of `symbols` that the policy has parked at `instant`.
    public func parked(_ symbols: [String], at instant: C.Instant) -> Set<String> {
        let now = offset(instant)
        return state.withLock { state in Set(symbols.filter { state.policy.isParked($0, at: now) }) }
    }

    /// Fetches `symbols` (those the policy asks for now); retries stop before `nextPoll`.
    /// Nil when the task was cancelled.
    public func fetch(_ symbols: [String], nextPoll: C.Instant) async -> Outcome? {
        let started = clock.now
        let deadline = offset(nextPoll)
        let (access, wanted) = state.withLock { ($0.policy.access(at: offset(started)), $0.policy.symbolsToFetch(symbols, at: offset(started))) }
        var outcome = Outcome()
        outcome.answers.reserveCapacity(wanted.count)

        if case .blocked(let until) = access {
            outcome.unserved = wanted
            outcome.failure = (ProviderError(.rateLimited, "the service asked to wait (Retry-After); \(DurationText.format(until - offset(started))) to go"), 0)
        } else {
            for batch in Self.batches(wanted, size: provider.maximumBatchSize) {
                guard outcome.failure == nil else {
                    outcome.unserved += batch
                    continue
                }
                switch await fetchWithRetries(batch, deadline: deadline) {
                case .answered(let answer):
                    outcome.answers.merge(answer) { $1 }
                    let now = offset(clock.now)
                    log(state.withLock { $0.policy.record(answer, asked: batch, at: now) })
                case .failed(let error, let attempts):
                    outcome.failure = (error, attempts)
                    outcome.unserved += batch
                case .cancelled:
                    return nil
                }
            }
        }

        if !outcome.unserved.isEmpty, !fallbacks.isEmpty {
            outcome.servedBy = await fetchFromFallbacks(outcome.unserved, into: &outcome.answers)
        }
        logFailover(failure: outcome.failure, unserved: outcome.unserved.count, servedByFallback: outcome.servedBy.count)
        // Provider text is data: a field that is not (a currency with a line break) is dropped here.
        for problem in ProviderText.validate(&outcome.answers) {
            logger.warning("\(problem)", metadata: ["symbol": "\(problem.symbol)"])
        }
        logSymbolFailures(outcome.answers)
        return outcome
    }

    // MARK: - Fetching

    private enum BatchOutcome {
        case answered([String: Result<Quote, ProviderError>])
        case failed(ProviderError, attempts: Int)
        case cancelled
    }

    /// One batch from the provider, retried as the policy decides.
    private func fetchWithRetries(_ batch: [String], deadline: Duration) async -> BatchOutcome {
        var attempt = 0
        while true {
            attempt += 1
            do {
                try await limiter?.acquire()
            } catch {
                return .cancelled
            }
            do {
                let answer = try await provider.fetch(batch)
                state.withLock { $0.policy.afterSuccess() }
                return .answered(answer)
            } catch {
                if Task.isCancelled { return .cancelled }
                // A service that rejects a whole request for an unknown symbol answered: the
                // symbols are unknown, the provider is fine.
                if error.kind == .unknownSymbol {
                    state.withLock { $0.policy.afterSuccess() }
                    return .answered(Dictionary(batch.map { ($0, .failure(error)) }, uniquingKeysWith: { first, _ in first }))
                }
                let failedAt = clock.now
                let draw = random()
                let decision = state.withLock {
                    $0.policy.afterFailure(error, attempt: attempt, now: offset(failedAt), nextPoll: deadline, random: draw)
                }
                guard case .retry(let delay) = decision else { return .failed(error, attempts: attempt) }
                logger.debug("fetch of \(batch.count) symbol(s) failed (attempt \(attempt)): \(error); retrying in \(DurationText.format(delay))")
                do {
                    try await clock.sleep(until: failedAt.advanced(by: delay), tolerance: nil)
                } catch {
                    return .cancelled
                }
            }
        }
    }

    /// Asks the fallbacks, in order, for `symbols`; each asks only for what the ones before
    /// it did not quote and it serves (``QuoteProvider/serves(_:)``). One attempt per fallback
    /// and poll. Returns who served which symbol.
    private func fetchFromFallbacks(_ symbols: [String], into answers: inout [String: Result<Quote, ProviderError>]) async -> [String: String] {
        var servedBy: [String: String] = [:]
        var remaining = symbols
        for fallback in fallbacks where !remaining.isEmpty {
            var missing = remaining.filter { !fallback.provider.serves($0) }
            for batch in Self.batches(remaining.filter(fallback.provider.serves), size: fallback.provider.maximumBatchSize) {
                do {
                    try await fallback.limiter?.acquire()
                } catch {
                    return servedBy
                }
                do {
                    let answer = try await fallback.provider.fetch(batch)
                    for symbol in batch {
                        if case .success(let quote)? = answer[symbol] {
                            answers[symbol] = .success(quote)
                            servedBy[symbol] = fallback.provider.name
                        } else {
                            missing.append(symbol)
                        }
                    }
                } catch {
                    logger.debug("fallback '\(fallback.provider.name)' failed for \(batch.count) symbol(s): \(error)")
                    missing += batch
                }
            }
            remaining = missing
        }
        return servedBy
    }

    // MARK: - Logging

    /// One line when a failing episode starts (how the poll failed, where the symbols went) and
    /// one when it ends; nothing per poll in between.
    private func logFailover(failure: (error: ProviderError, attempts: Int)?, unserved: Int, servedByFallback: Int) {
        let wasFailing = state.withLock { state -> Bool in
            defer { state.failingEpisode = failure != nil }
            return state.failingEpisode
        }
        if let failure, !wasFailing {
            let how = failure.attempts > 0 ? "fetch failed after \(failure.attempts) attempt(s): \(failure.error)" : "\(failure.error)"
            let next = fallbacks.isEmpty
                ? "\(unserved) symbol(s) wait for the next poll"
                : "\(servedByFallback) of \(unserved) symbol(s) served by fallback \(fallbacks.map { "'\($0.provider.name)'" }.joined(separator: ", "))"
            logger.info("\(how); \(next)")
        } else if failure == nil, wasFailing {
            logger.info(fallbacks.isEmpty ? "provider answers again" : "provider answers again; its symbols are back from the fallback")
        }
    }

    private func log(_ events: [ProviderPolicy.SymbolEvent]) {
        for event in events {
            switch event {
            case .parked(let symbol, let count, let reason):
                logger.warning("unknown symbol \(symbol) (\(reason)); answered unknown \(count) times in a row, now asked only every \(DurationText.format(settings.unknownSymbolRecheck))",
                               metadata: ["symbol": "\(symbol)"])
            case .recognized(let symbol):
                logger.info("symbol \(symbol) is known again", metadata: ["symbol": "\(symbol)"])
            }
        }
    }

    /// Per-symbol errors other than unknown symbols, at debug level: data health reports the
    /// lasting ones.
    private func logSymbolFailures(_ answers: [String: Result<Quote, ProviderError>]) {
        guard logger.logLevel <= .debug else { return }
        for (symbol, answer) in answers {
            if case .failure(let error) = answer, error.kind != .unknownSymbol {
                logger.debug("\(symbol): \(error)", metadata: ["symbol": "\(symbol)"])
            }
        }
    }

    /// A warning at start when the rate limit cannot fit one poll's requests of `symbols` in
    /// `interval`.
    func warnIfRateLimitIsTooLow(symbols: [String], interval: Duration) {
        guard let spacing = limiter?.interval else { return }
        let requests = Self.batches(symbols, size: provider.maximumBatchSize).count
        guard requests > 1, spacing * (requests - 1) >= interval else { return }
        logger.warning("""
            \(symbols.count) symbol(s) need \(requests) requests per poll, but the rate limit allows one every \
            \(DurationText.format(spacing)): a poll takes about \(DurationText.format(spacing * (requests - 1))), longer than the interval \
            \(DurationText.format(interval)); polls will be skipped
            """)
    }

    // MARK: - Helpers

    private func offset(_ instant: C.Instant) -> Duration { origin.duration(to: instant) }

    static func batches(_ symbols: [String], size: Int) -> [[String]] {
        let size = max(size, 1)
        return stride(from: 0, to: symbols.count, by: size).map { Array(symbols[$0..<min($0 + size, symbols.count)]) }
    }
}
