import Logging
import PriceWatchCore
import ServiceLifecycle

/// Sends the calendar rules' reminders (``CalendarWatch/remind(rules:now:)``) from the stored
/// events: at start, then every ``tick`` (a minute: a reminder goes out within a minute of its
/// due time), until graceful shutdown. Reading the calendars is the `calendars` job's
/// (``CalendarRefresh``). A look that fails is logged and made again at the next tick; one
/// that queued something rings the outbox's doorbell.
public struct CalendarService<C: Clock<Duration>>: Service {
    private let watch: CalendarWatch
    private let configuration: @Sendable () async -> Configuration
    private let clock: C
    private let wallClock: @Sendable () -> Timestamp
    private let doorbell: Doorbell
    private let logger: Logger

    /// How often reminders are looked for.
    public static var tick: Duration { .seconds(60) }

    public init(watch: CalendarWatch, configuration: @escaping @Sendable () async -> Configuration, clock: C,
                wallClock: @escaping @Sendable () -> Timestamp, doorbell: Doorbell, logger: Logger) {
        self.watch = watch
        self.configuration = configuration
        self.clock = clock
        self.wallClock = wallClock
        self.doorbell = doorbell
        self.logger = logger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let rules = await configuration().eventRules.filter { $0.enabled && $0.event.isCalendarDate }
                if !rules.isEmpty {
                    do {
                        if try await watch.remind(rules: rules, now: wallClock()) > 0 { doorbell.ring() }
                    } catch is CancellationError {
                        return
                    } catch {
                        logger.error("could not look for due reminders: \(error); looking again in a minute")
                    }
                }
                do { try await clock.sleep(for: Self.tick) } catch { return }
            }
        }
    }
}
