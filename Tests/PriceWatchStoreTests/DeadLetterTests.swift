import Foundation
import PriceWatchCore
import PriceWatchStore
import Testing

/// Dead letters: listed, selected by alert, sink or time, and re-queued with their alert id.
@Suite struct DeadLetterTests {
    /// Alerts a1 (t=0), a2 (t=60), a3 (t=120), each to `console` and `ops`; every delivery dead
    /// except a3 to console, which is delivered.
    static func outbox() async throws -> SQLiteAlertStore {
        let store = try SQLiteAlertStore.inMemory()
        for (index, id) in ["a1", "a2", "a3"].enumerated() {
            try await store.commit(Fixtures.commit(try Fixtures.alert(id: id, at: Int64(index * 60)), sinks: ["console", "ops"]))
        }
        for id in ["a1", "a2", "a3"] {
            for sink in ["console", "ops"] {
                let result: DeliveryOutcome.Result = id == "a3" && sink == "console" ? .delivered : .dead(error: "HTTP 404")
                try await store.recordAttempt(DeliveryOutcome(notificationID: id, sink: sink, at: Fixtures.time(200), result: result))
            }
        }
        return store
    }

    static func keys(_ deliveries: [Delivery]) -> [String] { deliveries.map { "\($0.notification.id)/\($0.sink)" } }

    @Test func deadLettersAreListedBySelection() async throws {
        let store = try await Self.outbox()
        #expect(Self.keys(try await store.deadLetters(DeadLetterSelection())) == ["a1/console", "a1/ops", "a2/console", "a2/ops", "a3/ops"])
        #expect(Self.keys(try await store.deadLetters(DeadLetterSelection(alertID: "a2"))) == ["a2/console", "a2/ops"])
        #expect(Self.keys(try await store.deadLetters(DeadLetterSelection(sink: "ops"))) == ["a1/ops", "a2/ops", "a3/ops"])
        #expect(Self.keys(try await store.deadLetters(DeadLetterSelection(sink: "ops", since: Fixtures.time(60)))) == ["a2/ops", "a3/ops"])
        let dead = try await store.alerts(matching: AlertQuery(status: .dead))
        #expect(dead.map(\.alert.id) == ["a1", "a2", "a3"])
        #expect(dead.last?.deliveries.map(\.sink) == ["ops"], "only the dead deliveries of a3")
    }

    @Test func requeuedDeliveriesArePendingAgainWithTheirIDAndAFreshBudget() async throws {
        let store = try await Self.outbox()
        let now = Fixtures.time(10_000)
        let requeued = try await store.requeueDeadLetters(DeadLetterSelection(sink: "ops", since: Fixtures.time(60)), now: now)
        #expect(Self.keys(requeued) == ["a2/ops", "a3/ops"])
        #expect(requeued.allSatisfy { $0.status == .dead && $0.lastError == "HTTP 404" }, "returned as they were")
        let due = try await store.pendingDeliveries(dueBy: now, limit: 10)
        #expect(Self.keys(due) == ["a2/ops", "a3/ops"])
        #expect(due.allSatisfy { $0.attempts == 0 && $0.createdAt == now && $0.nextAttemptAt == now && $0.lastError == "HTTP 404" })
        #expect(due.map(\.notification) == requeued.map(\.notification), "the same alerts, ids included")
        // The rest stays as it was; a second re-queue finds nothing more of that selection.
        #expect(Self.keys(try await store.deadLetters(DeadLetterSelection())) == ["a1/console", "a1/ops", "a2/console"])
        #expect(try await store.requeueDeadLetters(DeadLetterSelection(sink: "ops", since: Fixtures.time(60)), now: now).isEmpty)
        // Delivered once re-sent.
        try await store.recordAttempt(DeliveryOutcome(notificationID: "a2", sink: "ops", at: now, result: .delivered))
        #expect(try await store.counts().deliveredDeliveries == 2)
    }

    @Test func aDeliveredOrPendingDeliveryIsNeverRequeued() async throws {
        let store = try await Self.outbox()
        let requeued = try await store.requeueDeadLetters(DeadLetterSelection(alertID: "a3"), now: Fixtures.time(10_000))
        #expect(Self.keys(requeued) == ["a3/ops"])
        let a3 = try await store.alerts(since: Fixtures.time(120)).first
        #expect(a3?.deliveries.map(\.status) == [.delivered, .pending])
    }
}
