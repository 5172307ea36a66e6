import PriceWatchCore
import PriceWatchHTTP
import PriceWatchServices
import Synchronization

/// `/api/ingest/NAME` in the running daemon: relayed messages go into the daemon's outbox (one
/// transaction with their deliveries, committed before the answer) and the doorbell wakes the
/// dispatcher, which delivers them as any notification.
///
/// The routes are kept here and replaced at each reload (a ``ConfigurationSubscriber``), so a
/// request never waits for the evaluator, which may be busy with a poll.
final class DaemonIngestOutbox: IngestOutbox, ConfigurationSubscriber {
    private let outbox: any OutboxStore
    private let doorbell: Doorbell
    private let wallClock: @Sendable () -> Timestamp
    private let routes: Mutex<[IngestRouteSettings]>

    init(outbox: any OutboxStore, doorbell: Doorbell, routes: [IngestRouteSettings], wallClock: @escaping @Sendable () -> Timestamp) {
        self.outbox = outbox
        self.doorbell = doorbell
        self.wallClock = wallClock
        self.routes = Mutex(routes)
    }

    func now() -> Timestamp { wallClock() }

    func route(named name: String) async -> IngestRouteSettings? {
        routes.withLock { routes in routes.first { $0.name == name } }
    }

    func store(_ notification: OutgoingNotification, sinks: [String]) async throws -> Bool {
        let added = try await outbox.enqueue(notification, sinks: sinks, now: wallClock())
        if added { doorbell.ring() }
        return added
    }

    func apply(_ setup: ServiceSetup, now: Timestamp) async throws {
        let ingest = setup.configuration.ingest
        routes.withLock { $0 = ingest }
    }
}
