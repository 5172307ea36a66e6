import Logging
import PriceWatchCore
import PriceWatchSystemd
import Synchronization

/// Polls one provider for its symbols at a fixed rate, on a monotonic clock, without drift,
/// applying the polling policy (``ProviderPolicy``): batches as large as the provider takes, its
/// rate limit, retries with backoff that never run into the next poll, failover to the
/// configured fallbacks, and parking of symbols the service does not know. It also watches
/// data health (``DataHealth``) and logs one warning per episode.
///
/// Ticks are at `start + k * interval`; a poll that overruns its interval skips the ticks it
/// missed rather than bursting to catch up. Each provider has its own poller task, so one
/// provider's slowness never delays another.
public struct ProviderPoller<C: Clock<Duration>>: Sendable {
    /// A provider this poller turns to, in order, for the symbols its own provider could not
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

    public let provider: any QuoteProvider
    public let symbols: [String]
    public let interval: Duration
    let evaluator: RuleEvaluator
    let clock: C
    let wallClock: @Sendable () -> Timestamp
    let logger: Logger
    let limiter: RateLimiter<C>?
    let fallbacks: [Fallback]
    let settings: PollingSettings
    /// A jitter draw in `0..<1` for retry delays.
    let random: @Sendable () -> Double
    /// Called after every poll (the watchdog and status use it).
    let onPoll: @Sendable (Timestamp) -> Void
    private let origin: C.Instant
    private let state: StateBox

    /// Most individual stale or fresh-again lines per poll; the rest are summed up in one line.
    static var symbolLinesPerPoll: Int { 10 }

    public init(provider: any QuoteProvider, symbols: [String], interval: Duration, evaluator: RuleEvaluator,
                clock: C, wallClock: @escaping @Sendable () -> Timestamp, logger: Logger,
                limiter: RateLimiter<C>? = nil, fallbacks: [Fallback] = [], settings: PollingSettings = PollingSettings(),
                random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
                onPoll: @escaping @Sendable (Timestamp) -> Void = { _ in }) {
        self.provider = provider
        self.symbols = symbols
        self.interval = interval
        self.evaluator = evaluator
        self.clock = clock
        self.wallClock = wallClock
        self.logger = logger
        self.limiter = limiter
        self.fallbacks = fallbacks
        self.settings = settings
        self.random = random
        self.onPoll = onPoll
        let origin = clock.now
        self.origin = origin
        self.state = StateBox(State(
            policy: settings.makePolicy(),
            health: DataHealth(symbols: symbols, staleAfter: settings.staleAfter, failureWarningAfter: settings.failureWarningAfter,
                               now: .zero)))
    }

    /// Runs until the task is cancelled.
    public func run() async {
        warnIfRateLimitIsTooLow()
        var next = clock.now
        while !Task.isCancelled {
            await pollOnce(nextPoll: next.advanced(by: interval))
            next = next.advanced(by: interval)
            let now = clock.now
            if next < now {
                var skipped = 0
                while next < now {
                    next = next.advanced(by: interval)
                    skipped += 1
                }
                logger.warning("poll took longer than the interval; skipped \(skipped) poll(s)", metadata: ["provider": "\(provider.name)"])
            }
            do {
                try await clock.sleep(until: next, tolerance: nil)
            } catch {
                return
            }
        }
    }

    /// One poll: every batch of symbols (with the policy's retries and failover), then
    /// evaluation and data health. Retries stop before `nextPoll` (default: one interval
    /// from now).
    public func pollOnce(nextPoll: C.Instant? = nil) async {
        let started = clock.now
        let deadline = offset(nextPoll ?? started.advanced(by: interval))
        let (access, wanted) = state.withLock { ($0.policy.access(at: offset(started)), $0.policy.symbolsToFetch(symbols, at: offset(started))) }
        var answers: [String: Result<Quote, ProviderError>] = [:]
        var unserved: [String] = []
        var failure: (error: ProviderError, attempts: Int)?

        if case .blocked(let until) = access {
            unserved = wanted
            failure = (ProviderError(.rateLimited, "the service asked to wait (Retry-After); \(Self.format(until - offset(started))) to go"), 0)
        } else {
            for batch in Self.batches(wanted, size: provider.maximumBatchSize) {
                guard failure == nil else {
                    unserved += batch
                    continue
                }
                switch await fetchWithRetries(batch, deadline: deadline) {
                case .answered(let answer):
                    answers.merge(answer) { $1 }
                    let now = offset(clock.now)
                    log(state.withLock { $0.policy.record(answer, asked: batch, at: now) })
                case .failed(let error, let attempts):
                    failure = (error, attempts)
                    unserved += batch
                case .cancelled:
                    return
                }
            }
        }

        var servedBy: [String: String] = [:]
        if !unserved.isEmpty, !fallbacks.isEmpty {
            servedBy = await fetchFromFallbacks(unserved, into: &answers)
        }
        logFailover(failure: failure, unserved: unserved.count, servedByFallback: servedBy.count)
        for problem in ProviderText.validate(&answers) {
            logger.warning("\(problem)", metadata: ["provider": "\(provider.name)", "symbol": "\(problem.symbol)"])
        }
        logSymbolFailures(answers)

        let now = wallClock()
        var report: RuleEvaluator.Report?
        do {
            report = try await evaluator.ingest(provider: provider.name, results: answers, now: now, servedBy: servedBy)
        } catch {
            logger.error("evaluation failed: \(error)", metadata: ["provider": "\(provider.name)"])
        }
        checkHealth(answers: answers, report: report, failure: failure?.error, unserved: Set(unserved).subtracting(servedBy.keys))
        onPoll(now)
    }

    // MARK: - Fetching

    private enum FetchOutcome {
        case answered([String: Result<Quote, ProviderError>])
        case failed(ProviderError, attempts: Int)
        case cancelled
    }

    /// One batch from the provider, retried as the policy decides.
    private func fetchWithRetries(_ batch: [String], deadline: Duration) async -> FetchOutcome {
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
                logger.debug("fetch of \(batch.count) symbol(s) failed (attempt \(attempt)): \(error); retrying in \(Self.format(delay))",
                             metadata: ["provider": "\(provider.name)"])
                do {
                    try await clock.sleep(until: failedAt.advanced(by: delay), tolerance: nil)
                } catch {
                    return .cancelled
                }
            }
        }
    }

    /// Asks the fallbacks, in order, for `symbols`; each asks only for what the ones before
    /// it did not quote. One attempt per fallback and poll. Returns who served which symbol.
    private func fetchFromFallbacks(_ symbols: [String], into answers: inout [String: Result<Quote, ProviderError>]) async -> [String: String] {
        var servedBy: [String: String] = [:]
        var remaining = symbols
        for fallback in fallbacks where !remaining.isEmpty {
            var missing: [String] = []
            for batch in Self.batches(remaining, size: fallback.provider.maximumBatchSize) {
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
                    logger.debug("fallback '\(fallback.provider.name)' failed for \(batch.count) symbol(s): \(error)",
                                 metadata: ["provider": "\(provider.name)"])
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
            logger.info("\(how); \(next)", metadata: ["provider": "\(provider.name)"])
        } else if failure == nil, wasFailing {
            logger.info(fallbacks.isEmpty ? "provider answers again" : "provider answers again; its symbols are back from the fallback",
                        metadata: ["provider": "\(provider.name)"])
        }
    }

    private func log(_ events: [ProviderPolicy.SymbolEvent]) {
        for event in events {
            switch event {
            case .parked(let symbol, let count, let reason):
                logger.warning("unknown symbol \(symbol) (\(reason)); answered unknown \(count) times in a row, now asked only every \(Self.format(settings.unknownSymbolRecheck))",
                               metadata: ["provider": "\(provider.name)", "symbol": "\(symbol)"])
            case .recognized(let symbol):
                logger.info("symbol \(symbol) is known again", metadata: ["provider": "\(provider.name)", "symbol": "\(symbol)"])
            }
        }
    }

    /// Per-symbol errors other than unknown symbols, at debug level: data health reports the
    /// lasting ones.
    private func logSymbolFailures(_ answers: [String: Result<Quote, ProviderError>]) {
        guard logger.logLevel <= .debug else { return }
        for (symbol, answer) in answers {
            if case .failure(let error) = answer, error.kind != .unknownSymbol {
                logger.debug("\(symbol): \(error)", metadata: ["provider": "\(provider.name)", "symbol": "\(symbol)"])
            }
        }
    }

    // MARK: - Data health

    private func checkHealth(answers: [String: Result<Quote, ProviderError>], report: RuleEvaluator.Report?,
                             failure: ProviderError?, unserved: Set<String>) {
        let now = offset(clock.now)
        let events = state.withLock { state -> [DataHealth.Event] in
            var events: [DataHealth.Event] = []
            if let event = state.health.pollFinished(failure: failure?.message) { events.append(event) }
            for symbol in symbols {
                let observation: DataHealth.Observation
                if case .success(let quote)? = answers[symbol] { state.marketStates[symbol] = quote.marketState }
                if state.policy.isParked(symbol, at: now) || !DataHealth.isTrading(state.marketStates[symbol] ?? nil) {
                    observation = .notExpected
                } else if report?.acceptedSymbols.contains(symbol) == true {
                    observation = .fresh
                } else {
                    switch answers[symbol] {
                    case .success(let quote)?:
                        observation = .notFresh(reason: "the latest quote, from \(quote.time), was already seen")
                    case .failure(let error)?:
                        observation = .notFresh(reason: error.message)
                    case nil:
                        if unserved.contains(symbol), let failure {
                            observation = .notFresh(reason: "the provider is failing: \(failure.message)")
                        } else {
                            observation = .notFresh(reason: "the provider returned no quote for it")
                        }
                    }
                }
                if let event = state.health.observe(symbol, observation, at: now) { events.append(event) }
            }
            return events + state.health.staleSymbols(at: now)
        }
        log(events)
    }

    private func log(_ events: [DataHealth.Event]) {
        var stale: [(symbol: String, age: Duration, reason: String)] = []
        var fresh: [(symbol: String, age: Duration)] = []
        for event in events {
            switch event {
            case .providerFailing(let polls, let reason):
                logger.warning("provider has failed \(polls) polls in a row: \(reason)",
                               metadata: ["provider": "\(provider.name)", OperatorEvent.metadataKey: OperatorEvent.providerFailing.metadataValue])
            case .providerRecovered(let polls):
                logger.info("provider recovered after \(polls) failed poll(s)", metadata: ["provider": "\(provider.name)"])
            case .symbolStale(let symbol, let age, let reason):
                stale.append((symbol, age, reason))
            case .symbolFresh(let symbol, let age):
                fresh.append((symbol, age))
            }
        }
        for entry in stale.prefix(Self.symbolLinesPerPoll) {
            logger.warning("\(entry.symbol) has had no fresh quote for \(Self.format(entry.age)): \(entry.reason)",
                           metadata: ["provider": "\(provider.name)", "symbol": "\(entry.symbol)"])
        }
        if stale.count > Self.symbolLinesPerPoll {
            logger.warning("\(stale.count - Self.symbolLinesPerPoll) more symbol(s) have had no fresh quote for \(Self.format(settings.staleAfter)) or longer",
                           metadata: ["provider": "\(provider.name)"])
        }
        for entry in fresh.prefix(Self.symbolLinesPerPoll) {
            logger.info("\(entry.symbol) has fresh quotes again after \(Self.format(entry.age))",
                        metadata: ["provider": "\(provider.name)", "symbol": "\(entry.symbol)"])
        }
        if fresh.count > Self.symbolLinesPerPoll {
            logger.info("\(fresh.count - Self.symbolLinesPerPoll) more symbol(s) have fresh quotes again", metadata: ["provider": "\(provider.name)"])
        }
    }

    /// A warning at start when the rate limit cannot fit one poll's requests in the interval.
    private func warnIfRateLimitIsTooLow() {
        guard let spacing = limiter?.interval else { return }
        let requests = Self.batches(symbols, size: provider.maximumBatchSize).count
        guard requests > 1, spacing * (requests - 1) >= interval else { return }
        logger.warning("""
            \(symbols.count) symbol(s) need \(requests) requests per poll, but the rate limit allows one every \
            \(Self.format(spacing)): a poll takes about \(Self.format(spacing * (requests - 1))), longer than the interval \
            \(Self.format(interval)); polls will be skipped
            """, metadata: ["provider": "\(provider.name)"])
    }

    // MARK: - Helpers

    private func offset(_ instant: C.Instant) -> Duration { origin.duration(to: instant) }

    static func batches(_ symbols: [String], size: Int) -> [[String]] {
        let size = max(size, 1)
        return stride(from: 0, to: symbols.count, by: size).map { Array(symbols[$0..<min($0 + size, symbols.count)]) }
    }

    /// `1.5s`, `2m`, `1h30m`: durations for log lines.
    static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        if milliseconds < 60_000 {
            return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(Double(milliseconds) / 1000)s"
        }
        let total = seconds
        let parts = [(total / 86_400, "d"), (total % 86_400 / 3_600, "h"), (total % 3_600 / 60, "m"), (total % 60, "s")]
        return parts.filter { $0.0 > 0 }.map { "\($0.0)\($0.1)" }.joined()
    }

    // MARK: - State

    struct State: Sendable {
        var policy: ProviderPolicy
        var health: DataHealth
        /// The last market state each symbol's quote reported.
        var marketStates: [String: String?] = [:]
        /// Whether the last poll failed (for the failover log lines).
        var failingEpisode = false
    }

    /// The poller's mutable state, shared by copies of the poller (one poll runs at a time).
    final class StateBox: Sendable {
        private let mutex: Mutex<State>
        init(_ state: State) { mutex = Mutex(state) }
        func withLock<T: Sendable>(_ body: (inout State) -> T) -> T { mutex.withLock { body(&$0) } }
    }
}
