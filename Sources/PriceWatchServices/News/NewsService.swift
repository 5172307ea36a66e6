import Logging
import PriceWatchCore
import ServiceLifecycle

/// Reads the news for the enabled news rules of the running configuration (``NewsWatch``): at
/// start, then every `[news] interval` (`docs/events.md`, "News"), until graceful shutdown.
///
/// Without news rules it only looks again, every ``idleRecheck``, whether a reload brought
/// some. A pass whose store writes fail is logged and made again at the next due time; a pass
/// that queued something rings the outbox's doorbell, so delivery starts at once.
public struct NewsService<C: Clock<Duration>>: Service {
    private let watch: NewsWatch
    private let source: @Sendable (NewsSettings) -> any HeadlineSource
    private let configuration: @Sendable () async -> Configuration
    private let clock: C
    private let wallClock: @Sendable () -> Timestamp
    private let doorbell: Doorbell
    private let logger: Logger

    /// How often a daemon without news rules looks whether a reload brought some.
    public static var idleRecheck: Duration { .seconds(60) }

    /// - Parameter source: the feed for the running configuration's `[news]` settings.
    public init(watch: NewsWatch, source: @escaping @Sendable (NewsSettings) -> any HeadlineSource,
                configuration: @escaping @Sendable () async -> Configuration, clock: C,
                wallClock: @escaping @Sendable () -> Timestamp, doorbell: Doorbell, logger: Logger) {
        self.watch = watch
        self.source = source
        self.configuration = configuration
        self.clock = clock
        self.wallClock = wallClock
        self.doorbell = doorbell
        self.logger = logger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let running = await configuration()
                let rules = running.newsRules
                var wait = Self.idleRecheck
                if !rules.isEmpty {
                    wait = .seconds(running.news.interval.seconds)
                    await pass(rules, from: source(running.news))
                }
                do { try await clock.sleep(for: wait) } catch { return }
            }
        }
    }

    /// One pass; its errors are logged, never thrown (the next pass tries again).
    func pass(_ rules: [EventRule], from source: any HeadlineSource) async {
        do {
            let outcome = try await watch.pass(rules: rules, from: source, now: wallClock())
            if outcome.queued > 0 { doorbell.ring() }
        } catch is CancellationError {
            return
        } catch {
            logger.error("could not record the news read: \(error); reading again at the next interval")
        }
    }
}
