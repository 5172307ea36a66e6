import Logging
import PriceWatchCore
import ServiceLifecycle

/// Runs ``CalendarWatch`` for the running configuration's calendar rules: at start, then every
/// ``tick`` (a minute: reminders go out within a minute of their due time; each calendar is
/// still read at most once a day), until graceful shutdown. A look that fails is logged and
/// made again at the next tick; one that queued something rings the outbox's doorbell.
public struct CalendarService<C: Clock<Duration>>: Service {
    private let watch: CalendarWatch
    private let sources: @Sendable (Configuration) -> [any CompanyCalendarSource]
    private let configuration: @Sendable () async -> Configuration
    private let clock: C
    private let wallClock: @Sendable () -> Timestamp
    private let doorbell: Doorbell
    private let logger: Logger

    /// How often reminders are looked for.
    public static var tick: Duration { .seconds(60) }

    /// - Parameter sources: the calendar sources of a configuration (its Yahoo provider's
    ///   settings, so `base_url` and the session are the quotes'; Finnhub's with its key).
    public init(watch: CalendarWatch, sources: @escaping @Sendable (Configuration) -> [any CompanyCalendarSource],
                configuration: @escaping @Sendable () async -> Configuration, clock: C,
                wallClock: @escaping @Sendable () -> Timestamp, doorbell: Doorbell, logger: Logger) {
        self.watch = watch
        self.sources = sources
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
                let rules = running.eventRules.filter { $0.enabled && $0.event.isCalendarDate }
                let sources = rules.isEmpty ? [] : sources(running)
                if !sources.isEmpty {
                    do {
                        if try await watch.pass(rules: rules, from: sources, now: wallClock()) > 0 { doorbell.ring() }
                    } catch is CancellationError {
                        return
                    } catch {
                        logger.error("could not look at the calendars: \(error); looking again in a minute")
                    }
                }
                do { try await clock.sleep(for: Self.tick) } catch { return }
            }
        }
    }
}
