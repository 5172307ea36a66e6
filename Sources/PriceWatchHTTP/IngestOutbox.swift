import PriceWatchCore

/// Where `POST /api/ingest/NAME` stores what it relays: implemented by the application on the
/// daemon's store and doorbell.
///
/// The contract:
///
/// - ``store(_:sinks:)`` returns only once the notification and its deliveries are committed
///   (one transaction), so an answer of `200` is never lost to a crash; it rings the
///   dispatcher's doorbell and never waits for a delivery.
/// - A thrown error's description is shown to the client and never holds a secret.
/// - ``now()`` is the wall clock received times are read from (tests inject one).
public protocol IngestOutbox: Sendable {
    /// The current time.
    func now() -> Timestamp
    /// The route `name` in the running configuration, nil when it has no `[ingest.NAME]`.
    func route(named name: String) async -> IngestRouteSettings?
    /// Queues `notification` for `sinks`; false when a notification with its id is already
    /// stored (a client's retry), which adds nothing.
    func store(_ notification: OutgoingNotification, sinks: [String]) async throws -> Bool
}
