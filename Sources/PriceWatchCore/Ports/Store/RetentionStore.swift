/// The retention role of the store: what the housekeeping job deletes and tidies.
public protocol RetentionStore: Sendable {
    /// Deletes quotes older than `cutoff`, keeping per provider and symbol the newest quote at
    /// or before it. Returns how many rows went.
    @discardableResult
    func pruneHistory(before cutoff: Timestamp) async throws -> Int

    /// Deletes alerts queued (wall clock) before `cutoff` whose deliveries are all delivered
    /// or dead, with those deliveries. An alert with a pending delivery is always kept.
    /// Returns how many alerts went.
    @discardableResult
    func pruneAlerts(before cutoff: Timestamp) async throws -> Int

    /// Deletes notifications other than alerts (digests, reports, …) queued before `cutoff`
    /// whose deliveries are all delivered or dead, with those deliveries. Returns how many went.
    @discardableResult
    func pruneNotifications(before cutoff: Timestamp) async throws -> Int

    /// Deletes the states of rule-and-symbol pairs not in `live` (rules removed from the
    /// configuration, symbols removed from a rule) whose last alert is older than
    /// `lastAlertBefore` (quote time) or that never alerted. Returns how many went.
    @discardableResult
    func pruneRuleStates(keeping live: Set<RuleStateKey>, lastAlertBefore: Timestamp) async throws -> Int

    /// Lets the database tidy its query planning statistics (SQLite's `PRAGMA optimize`).
    func optimize() async throws
}
