import Logging
import PriceWatchCore

/// The `calendars` job (`docs/events.md`, "Schedule"): reads the calendar rules' calendars
/// that are due (``CalendarWatch/refresh(rules:from:now:)``: each source and symbol at most
/// once a day, a failed read again after an hour), then queues the reminders that became due.
///
/// It runs from the ``JobScheduler`` every hour on the hour and once at start (and when a
/// reload brings the first calendar rule), so a new rule's calendar is read at once; a failure
/// is the job's own (logged and recorded by the scheduler), and the next hour tries again.
public struct CalendarRefresh: Sendable {
    /// The job's name in logs and in the store.
    public static let name = "calendars"
    /// Every hour, on the hour (UTC).
    public static let schedule = CalendarSchedule(.hourly(minute: 0))

    private let watch: CalendarWatch
    private let sources: @Sendable (Configuration) -> [any CompanyCalendarSource]
    private let configuration: @Sendable () async -> Configuration
    private let wallClock: @Sendable () -> Timestamp
    private let doorbell: Doorbell

    /// - Parameter sources: the calendar sources of a configuration (its Yahoo provider's
    ///   settings, so `base_url` and the session are the quotes'; Nasdaq's and Finnhub's when
    ///   configured).
    public init(watch: CalendarWatch, sources: @escaping @Sendable (Configuration) -> [any CompanyCalendarSource],
                configuration: @escaping @Sendable () async -> Configuration,
                wallClock: @escaping @Sendable () -> Timestamp, doorbell: Doorbell) {
        self.watch = watch
        self.sources = sources
        self.configuration = configuration
        self.wallClock = wallClock
        self.doorbell = doorbell
    }

    /// The job for the scheduler.
    public var job: ScheduledJob {
        ScheduledJob(name: Self.name, schedule: Self.schedule, grace: nil, runsAtStart: true) { _ in try await run() }
    }

    /// One read of what is due, at the wall clock's now; returns how many reads succeeded.
    @discardableResult
    public func run() async throws -> Int {
        let running = await configuration()
        let rules = running.eventRules.filter { $0.enabled && $0.event.isCalendarDate }
        guard !rules.isEmpty else { return 0 }
        let now = wallClock()
        let reads = try await watch.refresh(rules: rules, from: sources(running), now: now)
        if try await watch.remind(rules: rules, now: now) > 0 { doorbell.ring() }
        return reads
    }
}
