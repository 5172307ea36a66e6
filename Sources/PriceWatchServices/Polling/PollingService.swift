import Logging
import PriceWatchCore
import ServiceLifecycle
import Synchronization

/// The poll schedule: one ``ProviderPoller`` per provider with watched symbols, each
/// publishing its polls to the quote consumers, until graceful shutdown.
///
/// It takes its part of each new configuration from the ``ReloadCoordinator`` (it is a
/// ``ConfigurationSubscriber``): the pollers stop before the switch and start again under the
/// configuration that then runs. Providers whose settings did not change are the same objects
/// in the new setup (a replay keeps its position).
public final class PollingService<C: Clock<Duration>>: Service, ConfigurationSubscriber {
    /// Everything a running configuration consists of.
    public typealias Setup = ServiceSetup

    private let consumers: [any QuoteConsumer]
    private let clock: C
    private let wallClock: @Sendable () -> Timestamp
    private let logger: Logger
    private let observer: any DaemonObserver
    private let marketHours: any MarketHours
    private let rateLimits: ProviderRateLimits<C>
    private let metrics: DaemonMetrics
    private let state: Mutex<State>

    private struct State {
        var setup: ServiceSetup
        var pollers: Task<Void, Never>?
        var started = false
        var stopped = false
    }

    /// - Parameters:
    ///   - consumers: every receiver of the quote stream (the rule evaluator among them).
    ///   - marketHours: the calendars: a symbol whose market is closed is not polled after its
    ///     closing poll (``MarketPollPlanner``). The default knows no market: everything is polled.
    ///   - rateLimits: the providers' rate limits, shared with other senders of requests (the
    ///     warm-up); updated here each time polling starts.
    ///   - metrics: where each poll's phases are timed.
    public init(initial: ServiceSetup, consumers: [any QuoteConsumer], clock: C, wallClock: @escaping @Sendable () -> Timestamp,
                logger: Logger, observer: any DaemonObserver, marketHours: any MarketHours = AlwaysOpenMarkets(),
                rateLimits: ProviderRateLimits<C>? = nil, metrics: DaemonMetrics = .disabled) {
        self.metrics = metrics
        self.marketHours = marketHours
        self.rateLimits = rateLimits ?? ProviderRateLimits(clock: clock)
        self.consumers = consumers
        self.clock = clock
        self.wallClock = wallClock
        self.logger = logger
        self.observer = observer
        self.state = Mutex(State(setup: initial))
    }

    public func run() async throws {
        let initial = state.withLock { state -> ServiceSetup? in
            guard !state.started else { return nil }
            state.started = true
            return state.setup
        }
        if let initial { start(initial) }
        try? await gracefulShutdown()
        let pollers = state.withLock { state -> Task<Void, Never>? in
            state.stopped = true
            defer { state.pollers = nil }
            return state.pollers
        }
        pollers?.cancel()
        await pollers?.value
    }

    public func pause() async {
        let pollers = state.withLock { state -> Task<Void, Never>? in
            defer { state.pollers = nil }
            return state.pollers
        }
        pollers?.cancel()
        await pollers?.value
    }

    public func apply(_ setup: ServiceSetup, now: Timestamp) async throws {}

    public func resume(with setup: ServiceSetup) async {
        let previous = state.withLock { state -> Task<Void, Never>? in
            state.started = true
            state.setup = setup
            defer { state.pollers = nil }
            return state.pollers
        }
        previous?.cancel()
        await previous?.value
        start(setup)
    }

    private func start(_ setup: ServiceSetup) {
        let configuration = setup.configuration
        // One rate limit per provider, shared by its poller and every poller it is a fallback of.
        let limiters = rateLimits.update(for: setup)
        let pollingSettings = PollingSettings(configuration: configuration)
        var pollers: [ProviderPoller<C>] = []
        for settings in configuration.providers {
            let symbols = configuration.symbols(for: settings.name)
            guard !symbols.isEmpty, let provider = setup.providers[settings.name] else { continue }
            let observer = self.observer
            let fallbacks = settings.fallback.compactMap { name in
                setup.providers[name].map { ProviderFetcher<C>.Fallback(provider: $0, limiter: limiters[name]) }
            }
            pollers.append(ProviderPoller(provider: provider, symbols: symbols, interval: settings.interval.swiftDuration,
                                          consumers: consumers, clock: clock, wallClock: wallClock, logger: logger,
                                          limiter: limiters[settings.name], fallbacks: fallbacks, settings: pollingSettings,
                                          marketHours: marketHours, marketOverrides: configuration.marketOverrides(for: settings.name),
                                          metrics: metrics, onPoll: { observer.polled(provider: settings.name, at: $0) }))
        }
        let all = pollers
        state.withLock { state in
            guard !state.stopped else { return }
            state.pollers = Self.run(all)
        }
    }

    private static func run(_ pollers: [ProviderPoller<C>]) -> Task<Void, Never> {
        Task {
            await withTaskGroup(of: Void.self) { group in
                for poller in pollers { group.addTask { await poller.run() } }
            }
        }
    }
}
