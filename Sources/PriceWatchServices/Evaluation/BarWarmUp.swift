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
/// Requests go out one at a time, so a large configuration's warm-up never bursts past a
/// provider's rate limit. What was fetched is stored, so a restart fetches nothing again. A
/// provider without a chart endpoint (the replay provider, most keyed services) leaves its
/// rules to warm up from the bars the daemon records itself; a failed fetch is logged and
/// tried again at the next start or reload.
public actor BarWarmUp: ConfigurationSubscriber, Service {
    private let evaluator: RuleEvaluator
    private let store: any CandleStore
    /// The chart endpoints of a setup's providers, by provider name.
    private let chartEndpoints: @Sendable (ServiceSetup) -> [String: any PriceChartProviding]
    private var charts: [String: any PriceChartProviding]
    private let wallClock: @Sendable () -> Timestamp
    private let logger: Logger
    private let wakeUps: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    public init(evaluator: RuleEvaluator, store: any CandleStore, initial: ServiceSetup,
                chartEndpoints: @escaping @Sendable (ServiceSetup) -> [String: any PriceChartProviding] = BarWarmUp.chartEndpoints(of:),
                wallClock: @escaping @Sendable () -> Timestamp, logger: Logger) {
        self.evaluator = evaluator
        self.store = store
        self.chartEndpoints = chartEndpoints
        self.charts = chartEndpoints(initial)
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

    public func run() async throws {
        wake.yield()
        for await _ in wakeUps.cancelOnGracefulShutdown() {
            await pass()
        }
    }

    public func apply(_ setup: ServiceSetup, now: Timestamp) async throws {}

    public func resume(with setup: ServiceSetup) async {
        charts = chartEndpoints(setup)
        wake.yield()
    }

    /// Fetches what every track that is warming up lacks, one request at a time.
    func pass() async {
        for request in await evaluator.warmUpRequests() {
            if Task.isCancelled { return }
            guard let chart = charts[request.provider] else {
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
            do {
                let answer = try await chart.chart(symbol: request.symbol, interval: interval,
                                                   from: Timestamp(milliseconds: now.milliseconds &- reach), to: now)
                try await store.storeCandles(answer.candles, symbol: request.symbol)
                let closed = await evaluator.reloadBars(provider: request.provider, symbol: request.symbol,
                                                        timeframe: request.timeframe, now: now) ?? 0
                let state = closed >= request.bars ? "ready" : "still warming up"
                logger.info("""
                    warmed up \(request.symbol) \(request.timeframe) bars from provider '\(request.provider)': \
                    \(answer.candles.count) candles, \(closed) of \(request.bars) bars (\(state))
                    """)
            } catch is CancellationError {
                return
            } catch {
                logger.warning("""
                    could not fetch the history of \(request.symbol) from provider '\(request.provider)' to warm up its \
                    \(request.timeframe) bars: \(error); its rules wait for recorded bars (tried again at the next start or reload)
                    """)
            }
        }
    }
}
