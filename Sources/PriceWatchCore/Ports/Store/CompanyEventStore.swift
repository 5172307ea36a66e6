/// Where the daemon keeps companies' calendars and which reminders it sent (`docs/events.md`).
///
/// Implementations keep every event by its id, replace an event stored under the same id, and
/// record each (rule, event) reminder once.
public protocol CompanyEventStore: Sendable {
    /// The events stored for `symbols` (all symbols when nil), by date.
    func companyEvents(of symbols: [String]?) async throws -> [CompanyEvent]
    /// Stores `events` (replacing those with the same id), drops the ids in `drop`, and
    /// records that `source`'s calendar of `symbol` was read at `now` (clearing a failure);
    /// in one transaction.
    func storeCalendar(of symbol: String, source: String, events: [CompanyEvent], drop: [String], now: Timestamp) async throws
    /// Records that reading `source`'s calendar of `symbol` failed at `now`.
    func recordCalendarFailure(of symbol: String, source: String, now: Timestamp) async throws
    /// The reads recorded for `symbols`, every source's (a symbol and source never read is absent).
    func calendarReads(of symbols: [String]) async throws -> [CalendarRead]
    /// Of `reminders` (rule id, event id), those not recorded as sent.
    func unsentReminders(_ reminders: [(rule: String, event: String)]) async throws -> Set<String>
    /// Records the reminder of `event` for `rule` as sent at `now`.
    func recordReminder(rule: String, event: String, now: Timestamp) async throws
}
