import Logging
import PriceWatchCore
import ServiceLifecycle

/// Fetches the bars technical rules still lack from their providers' chart endpoints, stores
/// them as candles, and has the evaluator rebuild those bars (`docs/rules.md`, "Warming up").
///
/// It runs beside polling, never before it: a rule that is warming up is simply not evaluated
/// yet, and the first poll of every other rule goes out on time. One pass runs at start and
/// one after every reload (as a ``ConfigurationSubscriber``, after the evaluator), asking the
/// evaluator which (symbol, timeframe) pairs have fewer closed bars than their rules need.
/// Requests are budgeted like polls: one at a time, each waiting for the provider's rate limit
/// (shared with its pollers through ``ProviderRateLimits``), a transient failure retried with
/// the polls' backoff (`Retry-After` honoured), and, when the provider has no chart endpoint or
/// keeps failing, its configured fallbacks asked in order. What was fetched is stored, so a
/// restart fetches nothing again. Without any chart endpoint (the replay provider, most keyed
/// services) the rules warm up from the bars the daemon records itself; a fetch that failed
/// everywhere is logged and tried again at the next start or reload.
public actor BarWarmUp: ConfigurationSubscriber, Service {
    private let evaluator: RuleEvaluator
    private let store: any CandleStore
    /// The chart endpoints of a setup's providers, by provider name.
    private let chartEndpoints: @Sendable (ServiceSetup) -> [String: any PriceChartProviding]
    private var charts: [String: any PriceChartProviding]
    /// Each provider's configured fallbacks, in order.
    private var fallbacks: [String: [String]]
    private let acquire: @Sendable (String) async throws -> Void
    private let sleep: @Sendable (Duration) async throws -> Void
    private let backoff: PollBackoff
    private let random: @Sendable () -> Double
    private let wallClock: @Sendable () -> Timestamp
    private let logger: Logger
    private let wakeUps: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    /// - Parameters:
    ///   - acquire: waits for provider NAME's rate limit (``ProviderRateLimits/acquire(_:)``
    ///     of the polling service's limits).
    ///   - sleep: waits between retries (on the daemon's clock).
    ///   - backoff: the polls' retry policy: attempts per provider, delays, `Retry-After`.
    public init(evaluator: RuleEvaluator, store: any CandleStore, initial: ServiceSetup,
                chartEndpoints: @escaping @Sendable (ServiceSetup) -> [String: any PriceChartProviding] = BarWarmUp.chartEndpoints(of:),
                acquire: @escaping @Sendable (String) async throws -> Void = { _ in },
                sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
                backoff: PollBackoff = PollBackoff(), random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
                wallClock: @escaping @Sendable () -> Timestamp, logger: Logger) {
        self.evaluator = evaluator
        self.store = store
        self.chartEndpoints = chartEndpoints
        self.charts = chartEndpoints(initial)
        self.fallbacks = Self.fallbacks(of: initial)
        self.acquire = acquire
        self.sleep = sleep
        self.backoff = backoff
        self.random = random
        self.wallClock = wallClock
        self.logger = logger
        (wakeUps, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// The providers of `setup` that serve past candles (behind the metrics wrapper too).
    public static func chartEndpoints(of setup: ServiceSetup) -> [String: any PriceChartProviding] {
        setup.providers.compactMapValues { provider in
            ((provider as? MeasuredQuoteProvider)?.wrapped ?? provider) as? any PriceChartProviding
        }
    }

    static func fallbacks(of setup: ServiceSetup) -> [String: [String]] {
        Dictionary(setup.configuration.providers.map { ($0.name, $0.fallback) }, uniquingKeysWith: { first, _ in first })
    }

    public func run() async throws {
        wake.yield()
        for await _ in wakeUps.cancelOnGracefulShutdown() {
            await pass()
        }
    }

    public func apply(_ setup: ServiceSetup, now: Timestamp) async throws {}

    public func resume(with setup: ServiceSetup) async {
        charts = chartEndpoints(setup)
        fallbacks = Self.fallbacks(of: setup)
        wake.yield()
    }

    /// Fetches what every track that is warming up lacks, one request at a time.
    func pass() async {
        for request in await evaluator.warmUpRequests() {
            if Task.isCancelled { return }
            let sources = ([request.provider] + (fallbacks[request.provider] ?? [])).filter { charts[$0] != nil }
            guard !sources.isEmpty else {
                logger.info("""
                    \(request.symbol) \(request.timeframe) bars warm up from recorded quotes only (\(request.closedBars) of \
                    \(request.bars) bars): provider '\(request.provider)' has no chart endpoint
                    """)
                continue
            }
            let now = wallClock()
            let interval = BarHistory.candleInterval(for: request.timeframe)
            let reach = min(BarHistory.lookBack(bars: request.bars + 1, timeframe: request.timeframe),
                            BarHistory.longestFetch(of: interval))
            var problems: [String] = []
            for source in sources {
                guard let chart = charts[source] else { continue }
                do {
                    let answer = try await fetch(from: chart, named: source, symbol: request.symbol, interval: interval,
                                                 from: Timestamp(milliseconds: now.milliseconds &- reach), to: now)
                    try await store.storeCandles(answer.candles, symbol: request.symbol)
                    let closed = await evaluator.reloadBars(provider: request.provider, symbol: request.symbol,
                                                            timeframe: request.timeframe, now: now) ?? 0
                    let state = closed >= request.bars ? "ready" : "still warming up"
                    let via = source == request.provider ? "" : " (fallback of '\(request.provider)')"
                    logger.info("""
                        warmed up \(request.symbol) \(request.timeframe) bars from provider '\(source)'\(via): \
                        \(answer.candles.count) candles, \(closed) of \(request.bars) bars (\(state))
                        """)
                    problems = []
                    break
                } catch is CancellationError {
                    return
                } catch {
                    if Task.isCancelled { return }
                    problems.append("provider '\(source)': \(error)")
                }
            }
            if !problems.isEmpty {
                logger.warning("""
                    could not fetch the history of \(request.symbol) to warm up its \(request.timeframe) bars: \
                    \(problems.joined(separator: "; ")); its rules wait for recorded bars (tried again at the next start or reload)
                    """)
            }
        }
    }

    /// One history request under the provider's rate limit, a transient failure retried as a
    /// poll's batch is (the backoff's attempts and delays, `Retry-After` honoured).
    private func fetch(from chart: any PriceChartProviding, named name: String, symbol: String, interval: CandleInterval,
                       from: Timestamp, to: Timestamp) async throws -> PriceChart {
        var attempt = 0
        while true {
            attempt += 1
            try await acquire(name)
            do {
                return try await chart.chart(symbol: symbol, interval: interval, from: from, to: to)
            } catch {
                if Task.isCancelled { throw CancellationError() }
                guard error.isRetryable, attempt < backoff.maximumAttempts else { throw error }
                let delay = backoff.delay(afterAttempt: attempt, retryAfterSeconds: error.retryAfterSeconds, random: random())
                logger.debug("history of \(symbol) from provider '\(name)' failed (attempt \(attempt)): \(error); retrying in \(DurationText.format(delay))")
                try await sleep(delay)
            }
        }
    }
}
