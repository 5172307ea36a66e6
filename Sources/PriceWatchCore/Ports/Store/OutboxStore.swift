/// The outbox role of the store: what producers queue and the dispatcher reads and records.
///
/// Every delivery is kept until it is delivered or dead, across restarts. A sink whose
/// receiver is down never hides another sink's due deliveries behind its own.
public protocol OutboxStore: Sendable {
    /// Queues a notification of any kind with one pending delivery per sink, due at `now`, in
    /// one transaction; a notification whose id is already stored adds nothing. Returns whether
    /// it was added. (Alerts fired by rules are queued by ``RuleStateStore/commit(_:)``, with
    /// the state that fired them.)
    @discardableResult
    func enqueue(_ notification: OutgoingNotification, sinks: [String], now: Timestamp) async throws -> Bool

    /// Deliveries to `sink` still pending whose next attempt is at or before `dueBy`, ordered
    /// by next attempt, then queue time, then queue order; at most `limit`.
    func pendingDeliveries(sink: String, dueBy: Timestamp, limit: Int) async throws -> [Delivery]

    /// Every sink with pending deliveries, with the earliest next attempt among them.
    func pendingSinks() async throws -> [String: Timestamp]

    /// How many deliveries are pending (due or not), counted without reading them: cheap
    /// enough for a status line however long the outbox grows.
    func pendingDeliveryCount() async throws -> Int

    /// Records the outcomes of one attempt (at one delivery, or at a group), in one
    /// transaction. Only a pending delivery changes: for one already delivered or dead, the
    /// first final outcome stands.
    func recordAttempts(_ outcomes: [DeliveryOutcome]) async throws
}
