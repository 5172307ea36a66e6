import PriceWatchCore

/// A named job the ``JobScheduler`` runs at the due times of its schedule (calendar times, or
/// a market's closes).
public struct ScheduledJob: Sendable {
    /// Unique among the scheduler's jobs; the key of its last run in the store and the `job`
    /// of its log lines.
    public let name: String
    public let schedule: any JobSchedule
    /// How late a run missed while the daemon was down may still start (once, at start);
    /// nil: a missed run is always skipped (with a log line).
    public let grace: RuleDuration?
    /// Whether it also runs once when the scheduler starts it (at the daemon's start, and when a
    /// reload adds it), whatever its last run: for a job that decides itself what is due (the
    /// calendars' reads), so new work does not wait for the next due time.
    public let runsAtStart: Bool
    /// The work, given the due time it runs for. A thrown error is logged and recorded; the
    /// job runs again at its next due time. It should honour task cancellation (shutdown).
    public let action: @Sendable (_ due: Timestamp) async throws -> Void

    public init(name: String, schedule: any JobSchedule, grace: RuleDuration?, runsAtStart: Bool = false,
                action: @escaping @Sendable (_ due: Timestamp) async throws -> Void) {
        self.name = name
        self.schedule = schedule
        self.grace = grace
        self.runsAtStart = runsAtStart
        self.action = action
    }
}
