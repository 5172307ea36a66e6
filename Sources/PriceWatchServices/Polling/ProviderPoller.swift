import Logging
import PriceWatchCore
import Synchronization

/// Polls one provider for its symbols and publishes every poll to the quote stream.
///
/// Each poll is three steps, each owned elsewhere: the fixed-rate schedule
/// (``FixedRateSchedule``: no drift, missed ticks skipped), the fetch with the polling policy's
/// batches, rate limit, retries and failover (``ProviderFetcher``, which returns a value), and
/// the per-symbol data-health classification (``PollHealthClassifier`` and ``DataHealth``, pure,
/// in the core). The results go to every ``QuoteConsumer`` (the rule evaluator is one); adding
/// a consumer never changes the poller. Each provider has its own poller task, so one
/// provider's slowness never delays another.
///
/// Market-aware: at each tick the ``MarketPollPlanner`` (pure, in the core, over the
/// ``MarketHours`` port) picks the symbols to fetch, leaving out those whose market is closed
/// after their closing poll; their silence is not counted as staleness. Each market's open or
/// close is logged once, with the fetches saved.
public struct ProviderPoller<C: Clock<Duration>>: Sendable {
    /// A provider this poller turns to, in order, for the symbols its own provider could not
    /// fetch in a poll.
    public typealias Fallback = ProviderFetcher<C>.Fallback

    public var provider: any QuoteProvider { fetcher.provider }
    public let symbols: [String]
    public let interval: Duration
    let fetcher: ProviderFetcher<C>
    let consumers: [any QuoteConsumer]
    /// The calendars, for the time zone of quotes that come without one (`{{local_time}}`).
    let marketHours: any MarketHours
    let marketOverrides: [String: MarketIdentifier]
    let clock: C
    let wallClock: @Sendable () -> Timestamp
    /// Carries the provider's metadata, set once.
    let logger: Logger
    let settings: PollingSettings
    /// Called after every poll (the watchdog and status use it).
    let onPoll: @Sendable (Timestamp) -> Void
    /// Where each poll's phases are timed.
    let metrics: DaemonMetrics
    private let state: StateBox

    /// Most individual stale or fresh-again lines per poll; the rest are summed up in one line.
    static var symbolLinesPerPoll: Int { 10 }

    /// - Parameter consumers: every receiver of this provider's polls, the rule evaluator among them.
    public init(provider: any QuoteProvider, symbols: [String], interval: Duration, consumers: [any QuoteConsumer],
                clock: C, wallClock: @escaping @Sendable () -> Timestamp, logger: Logger,
                limiter: RateLimiter<C>? = nil, fallbacks: [Fallback] = [], settings: PollingSettings = PollingSettings(),
                random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
                marketHours: any MarketHours = AlwaysOpenMarkets(), marketOverrides: [String: MarketIdentifier] = [:],
                metrics: DaemonMetrics = .disabled, onPoll: @escaping @Sendable (Timestamp) -> Void = { _ in }) {
        var logger = logger
        logger[metadataKey: "provider"] = "\(provider.name)"
        let origin = clock.now
        self.fetcher = ProviderFetcher(provider: provider, clock: clock, origin: origin, logger: logger, limiter: limiter,
                                       fallbacks: fallbacks, settings: settings, random: random)
        self.symbols = symbols
        self.interval = interval
        self.consumers = consumers
        self.clock = clock
        self.wallClock = wallClock
        self.logger = logger
        self.settings = settings
        self.onPoll = onPoll
        self.metrics = metrics
        self.marketHours = marketHours
        self.marketOverrides = marketOverrides
        self.state = StateBox(origin: origin, State(
            health: DataHealth(symbols: symbols, staleAfter: settings.staleAfter, failureWarningAfter: settings.failureWarningAfter,
                               now: .zero),
            planner: MarketPollPlanner(symbols: symbols, overrides: marketOverrides, hours: marketHours)))
    }

    /// Runs until the task is cancelled.
    public func run() async {
        fetcher.warnIfRateLimitIsTooLow(symbols: symbols, interval: interval)
        await FixedRateSchedule(interval: interval, clock: clock).run({ nextTick in
            await pollOnce(nextPoll: nextTick)
        }, skipped: { skipped in
            logger.warning("poll took longer than the interval; skipped \(skipped) poll(s)")
        })
    }

    /// One poll: the fetch (with the policy's retries and failover), then every consumer, then
    /// data health. Retries stop before `nextPoll` (default: one interval from now).
    public func pollOnce(nextPoll: C.Instant? = nil) async {
        var stopwatch = PhaseStopwatch(clock: clock)
        let plan = state.plan(at: wallClock())
        log(plan.changes)
        stopwatch.end(.plan)
        guard !plan.fetch.isEmpty else {
            // Every market is closed and had its closing poll: nothing to ask, nothing expected.
            onPoll(wallClock())
            return
        }
        guard let fetched = await fetcher.fetch(plan.fetch, nextPoll: nextPoll ?? clock.now.advanced(by: interval)) else { return }
        stopwatch.end(.fetch)
        let answers = state.withMarketTimeZones(fetched.answers, hours: marketHours, overrides: marketOverrides)
        let poll = PolledQuotes(provider: provider.name, results: answers, servedBy: fetched.servedBy,
                                failure: fetched.failure?.error,
                                unserved: Set(fetched.unserved).subtracting(fetched.servedBy.keys), time: wallClock())
        state.learnMarkets(from: poll)
        let fresh = await publish(poll)
        stopwatch.end(.consume)
        checkHealth(poll, fresh: fresh, closed: plan.closed)
        stopwatch.end(.health)
        metrics.pollTimed(provider: provider.name, phases: stopwatch.phases, total: stopwatch.total)
        onPoll(poll.time)
    }

    /// The phases of one poll, each from the end of the one before, on the poller's clock.
    private struct PhaseStopwatch {
        let clock: C
        let start: C.Instant
        var last: C.Instant
        var phases: [(PollPhase, Duration)] = []
        init(clock: C) {
            self.clock = clock
            start = clock.now
            last = start
        }
        mutating func end(_ phase: PollPhase) {
            let now = clock.now
            phases.append((phase, last.duration(to: now)))
            last = now
        }
        var total: Duration { start.duration(to: last) }
    }

    /// Symbol fetches not made because their market was closed, since the poller started.
    public var savedFetches: Int { state.savedFetches }

    /// Hands `poll` to every consumer at once; the symbols any of them accepted.
    private func publish(_ poll: PolledQuotes) async -> Set<String> {
        if consumers.count == 1, let only = consumers.first { return await only.receive(poll).acceptedSymbols }
        return await withTaskGroup(of: QuoteReceipt.self) { group in
            for consumer in consumers { group.addTask { await consumer.receive(poll) } }
            // Grown from the largest receipt, not rebuilt from nothing: most consumers accept
            // the same symbols, which are then found rather than inserted.
            var accepted: Set<String> = []
            for await receipt in group {
                var other = receipt.acceptedSymbols
                if other.count > accepted.count { swap(&accepted, &other) }
                if !other.isEmpty { accepted.formUnion(other) }
            }
            return accepted
        }
    }

    // MARK: - Data health

    /// - Parameter closed: symbols whose market is closed: like parked ones, nothing is expected.
    private func checkHealth(_ poll: PolledQuotes, fresh: Set<String>, closed: Set<String>) {
        let instant = clock.now
        let parked = fetcher.parked(symbols, at: instant).union(closed)
        let events = state.withLock(at: instant) { state, now -> [DataHealth.Event] in
            var events: [DataHealth.Event] = []
            if let event = state.health.pollFinished(failure: poll.failure?.message) { events.append(event) }
            for (symbol, observation) in state.classifier.classify(symbols, poll: poll, fresh: fresh, parked: parked) {
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
                               metadata: [OperatorEvent.metadataKey: OperatorEvent.providerFailing.metadataValue])
            case .providerRecovered(let polls):
                logger.info("provider recovered after \(polls) failed poll(s)")
            case .symbolStale(let symbol, let age, let reason):
                stale.append((symbol, age, reason))
            case .symbolFresh(let symbol, let age):
                fresh.append((symbol, age))
            }
        }
        for entry in stale.prefix(Self.symbolLinesPerPoll) {
            logger.warning("\(entry.symbol) has had no fresh quote for \(DurationText.format(entry.age)): \(entry.reason)",
                           metadata: ["symbol": "\(entry.symbol)"])
        }
        if stale.count > Self.symbolLinesPerPoll {
            logger.warning("\(stale.count - Self.symbolLinesPerPoll) more symbol(s) have had no fresh quote for \(DurationText.format(settings.staleAfter)) or longer")
        }
        for entry in fresh.prefix(Self.symbolLinesPerPoll) {
            logger.info("\(entry.symbol) has fresh quotes again after \(DurationText.format(entry.age))",
                        metadata: ["symbol": "\(entry.symbol)"])
        }
        if fresh.count > Self.symbolLinesPerPoll {
            logger.info("\(fresh.count - Self.symbolLinesPerPoll) more symbol(s) have fresh quotes again")
        }
    }

    /// One line per market open or close, never one per tick.
    private func log(_ changes: [MarketPollPlanner.Change]) {
        for change in changes {
            switch change {
            case .closed(let market, let symbols, let nextOpen):
                let until = nextOpen.map { " at \($0)" } ?? ""
                logger.info("market \(market) closed: \(symbols) symbol(s) get one closing poll, then none until it opens\(until)",
                            metadata: ["market": "\(market)"])
            case .opened(let market, let symbols, let saved):
                logger.info("market \(market) opened: polling its \(symbols) symbol(s) again; \(saved) symbol fetch(es) saved while it was closed",
                            metadata: ["market": "\(market)", "saved_fetches": "\(saved)"])
            }
        }
    }

    // MARK: - State

    struct State: Sendable {
        var health: DataHealth
        var classifier = PollHealthClassifier()
        var planner: MarketPollPlanner
        /// The market each symbol's quotes without a time zone resolved to, with the exchange
        /// they named: resolved once, not at every poll (25,000 times a poll at 50,000 symbols).
        var resolvedMarkets: [String: (exchange: String?, market: MarketIdentifier?)] = [:]
    }

    /// The poller's data-health state, shared by copies of the poller (one poll runs at a time).
    final class StateBox: Sendable {
        private let origin: C.Instant
        private let mutex: Mutex<State>
        init(origin: C.Instant, _ state: State) {
            self.origin = origin
            mutex = Mutex(state)
        }
        /// The market-aware plan of the tick at `now` (wall time: calendars are).
        func plan(at now: Timestamp) -> MarketPollPlanner.Plan {
            mutex.withLock { $0.planner.plan(at: now) }
        }

        var savedFetches: Int { mutex.withLock { $0.planner.savedFetches } }

        /// Symbols of no known market learn it from their quotes' exchange codes.
        func learnMarkets(from poll: PolledQuotes) {
            guard mutex.withLock({ $0.planner.unresolvedCount > 0 }) else { return }
            var exchanges: [String: String] = [:]
            for case .success(let quote) in poll.results.values {
                if let exchange = quote.exchange { exchanges[quote.symbol] = exchange }
            }
            mutex.withLock { $0.planner.learn(exchanges: exchanges) }
        }

        /// The answers with each quote's exchange time zone filled in from the calendars
        /// (``Quote/withMarketTimeZone(from:market:)``), markets resolved once per symbol.
        func withMarketTimeZones(_ answers: [String: Result<Quote, ProviderError>], hours: any MarketHours,
                                 overrides: [String: MarketIdentifier]) -> [String: Result<Quote, ProviderError>] {
            // Only the quotes that gain a zone are written, into one copy: most answers need
            // none (the provider said, or no calendar knows the market), and a poll of 25,000
            // quotes is then not copied at all.
            let zoned = mutex.withLock { state in
                answers.compactMap { symbol, answer -> (String, Quote)? in
                    guard case .success(let quote) = answer, quote.exchangeTimeZone == nil else { return nil }
                    let market: MarketIdentifier?
                    if let override = overrides[quote.symbol] {
                        market = override
                    } else if let known = state.resolvedMarkets[quote.symbol], known.exchange == quote.exchange {
                        market = known.market
                    } else {
                        market = hours.market(ofSymbol: quote.symbol, exchange: quote.exchange)
                        state.resolvedMarkets[quote.symbol] = (quote.exchange, market)
                    }
                    let withZone = quote.withTimeZone(of: market, from: hours)
                    return withZone.exchangeTimeZone == nil ? nil : (symbol, withZone)
                }
            }
            guard !zoned.isEmpty else { return answers }
            var result = answers
            for (symbol, quote) in zoned { result[symbol] = .success(quote) }
            return result
        }

        /// Runs `body` on the state with `instant` as an offset from the poller's origin.
        func withLock<T: Sendable>(at instant: C.Instant, _ body: (inout State, Duration) -> T) -> T {
            let now = origin.duration(to: instant)
            return mutex.withLock { body(&$0, now) }
        }
    }
}
