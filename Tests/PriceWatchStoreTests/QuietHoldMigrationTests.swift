import Foundation
import PriceWatchCore
import PriceWatchStore
import Testing

/// The `quiet-hold` migration and `held_until`: a hold is remembered past the attempts after
/// the release, a file from before the migration reads as it is and, once migrated, knows
/// which of its pending deliveries quiet hours held.
@Suite struct QuietHoldMigrationTests {
    static let release = Fixtures.time(3600)

    @Test func aHoldIsRememberedAfterTheFailedRelease() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let alert = try Fixtures.alert(id: "a1")
        try await store.commit(Fixtures.commit(alert, sinks: ["webhook/ops"]))
        try await store.recordAttempts([DeliveryOutcome(notificationID: "a1", sink: "webhook/ops", at: Fixtures.time(10),
                                                        result: .held(until: Self.release))])
        var delivery = try #require(try await store.alerts(since: nil).first?.deliveries.first)
        #expect(delivery.heldUntil == Self.release && delivery.isQuietRelease)
        let retry = Fixtures.time(3601)
        try await store.recordAttempts([DeliveryOutcome(notificationID: "a1", sink: "webhook/ops", at: Self.release,
                                                        result: .retry(at: retry, error: "HTTP 503"))])
        delivery = try #require(try await store.alerts(since: nil).first?.deliveries.first)
        #expect(delivery.heldUntil == Self.release, "kept after the release")
        #expect(!delivery.isQuietRelease && delivery.ageOrigin == Self.release)
    }

    @Test func aFileFromBeforeTheMigrationReadsAsItIsThenLearnsItsHolds() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("pricewatch.db")
        do {
            let store = try SQLiteAlertStore.open(path: path)
            try await store.commit(Fixtures.commit(try Fixtures.alert(id: "a1"), sinks: ["webhook/ops", "stdout/console"]))
            try await store.recordAttempts([DeliveryOutcome(notificationID: "a1", sink: "webhook/ops", at: Fixtures.time(10),
                                                            result: .held(until: Self.release))])
            try store.close()
        }
        // As an older version left it: no column, no migration, the hold only in the last error.
        let raw = RawDatabase(path: path)
        try raw.execute("""
            ALTER TABLE delivery DROP COLUMN held_until;
            DELETE FROM grdb_migrations WHERE identifier = 'quiet-hold';
            """)
        let reader = try SQLiteAlertStore.openReadOnly(path: path)
        #expect(try await reader.alerts(since: nil).first?.deliveries.map(\.heldUntil) == [nil, nil])
        try reader.close()
        let store = try SQLiteAlertStore.open(path: path)
        let deliveries = try #require(try await store.alerts(since: nil).first?.deliveries)
        #expect(deliveries.map(\.sink) == ["webhook/ops", "stdout/console"])
        #expect(deliveries.map(\.heldUntil) == [Self.release, nil], "only the held one")
        try store.close()
    }
}
