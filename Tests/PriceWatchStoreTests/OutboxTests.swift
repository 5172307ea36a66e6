import PriceWatchCore
import PriceWatchStore
import Testing

/// The outbox: what is due, in which order, and how attempts change it.
@Suite struct OutboxTests {
    static func ids(_ deliveries: [Delivery]) -> [String] {
        deliveries.map { "\($0.notification.id) \($0.sink)" }
    }

    static func outcome(_ id: String, _ sink: String = "stdout/console", at seconds: Int64,
                        _ result: DeliveryOutcome.Result) -> DeliveryOutcome {
        DeliveryOutcome(notificationID: id, sink: sink, at: Fixtures.time(seconds), result: result)
    }

    /// Alerts a1 (queued at 10), a2 (at 20) and a3 (at 30), each to one sink.
    static func store() async throws -> SQLiteAlertStore {
        let store = try SQLiteAlertStore.inMemory()
        for (id, now) in [("a1", Int64(10)), ("a2", 20), ("a3", 30)] {
            try await store.commit(Fixtures.commit(try Fixtures.alert(id: id, at: now), sinks: ["stdout/console"], now: now))
        }
        return store
    }

    @Test func nothingPendingInAnEmptyStore() async throws {
        let store = try SQLiteAlertStore.inMemory()
        #expect(try await store.pendingDeliveries(dueBy: Fixtures.time(1_000_000), limit: 10).isEmpty)
        #expect(try await store.nextPendingAttempt() == nil)
        #expect(try await store.alerts(since: nil).isEmpty)
    }

    @Test func dueFilteringAndLimit() async throws {
        let store = try await Self.store()
        #expect(try await store.pendingDeliveries(dueBy: Fixtures.time(9), limit: 10).isEmpty)
        #expect(Self.ids(try await store.pendingDeliveries(dueBy: Fixtures.time(20), limit: 10)) == [
            "a1 stdout/console", "a2 stdout/console",
        ])
        #expect(Self.ids(try await store.pendingDeliveries(dueBy: Fixtures.time(100), limit: 2)) == [
            "a1 stdout/console", "a2 stdout/console",
        ])
        #expect(try await store.pendingDeliveries(dueBy: Fixtures.time(100), limit: 0).isEmpty)
        #expect(try await store.pendingDeliveries(dueBy: Fixtures.time(100), limit: -1).isEmpty)
        #expect(try await store.nextPendingAttempt() == Fixtures.time(10))
    }

    @Test func orderIsNextAttemptThenQueueTimeThenQueueOrder() async throws {
        let store = try await Self.store()
        // a1 is retried at 25: after a2 (due 20) and before a3 (due 30).
        try await store.recordAttempt(Self.outcome("a1", at: 11, .retry(at: Fixtures.time(25), error: "HTTP 503")))
        // a3 is retried at 20: the same due time as a2, but queued later.
        try await store.recordAttempt(Self.outcome("a3", at: 31, .retry(at: Fixtures.time(20), error: "timeout")))
        // a4 and a5 are queued by one commit: same times, commit order.
        try await store.commit(StoreCommit(provider: "yahoo", alerts: [
            PendingAlert(alert: try Fixtures.alert(id: "a5", at: 40), sinks: ["webhook/ops", "email/me"]),
            PendingAlert(alert: try Fixtures.alert(id: "a4", at: 40), sinks: ["stdout/console"]),
        ], now: Fixtures.time(40)))

        #expect(Self.ids(try await store.pendingDeliveries(dueBy: Fixtures.time(100), limit: 10)) == [
            "a2 stdout/console", "a3 stdout/console", "a1 stdout/console",
            "a5 webhook/ops", "a5 email/me", "a4 stdout/console",
        ])
        #expect(try await store.nextPendingAttempt() == Fixtures.time(20))
    }

    @Test func pendingDeliveryCountCountsPendingRowsDueOrNot() async throws {
        #expect(try await SQLiteAlertStore.inMemory().pendingDeliveryCount() == 0)
        let store = try await Self.store()
        #expect(try await store.pendingDeliveryCount() == 3)
        try await store.commit(StoreCommit(provider: "yahoo", alerts: [
            PendingAlert(alert: try Fixtures.alert(id: "a4", at: 40), sinks: ["webhook/ops", "email/me"]),
        ], now: Fixtures.time(40)))
        #expect(try await store.pendingDeliveryCount() == 5)
        try await store.recordAttempt(Self.outcome("a1", at: 11, .delivered))
        try await store.recordAttempt(Self.outcome("a2", at: 21, .dead(error: "HTTP 410")))
        // A retry far in the future is still pending.
        try await store.recordAttempt(Self.outcome("a3", at: 31, .retry(at: Fixtures.time(1_000_000), error: "timeout")))
        #expect(try await store.pendingDeliveryCount() == 3)
        #expect(try await store.pendingDeliveryCount()
                == store.pendingDeliveries(dueBy: Timestamp(milliseconds: .max), limit: 100).count)
    }

    @Test func delivered() async throws {
        let store = try await Self.store()
        try await store.recordAttempt(Self.outcome("a1", at: 12, .delivered))
        let delivery = try #require(try await store.alerts(since: nil).first?.deliveries.first)
        #expect(delivery.status == .delivered)
        #expect(delivery.attempts == 1)
        #expect(delivery.deliveredAt == Fixtures.time(12))
        #expect(delivery.nextAttemptAt == nil)
        #expect(delivery.lastError == nil)
        #expect(delivery.createdAt == Fixtures.time(10))
        #expect(Self.ids(try await store.pendingDeliveries(dueBy: Fixtures.time(100), limit: 10)) == [
            "a2 stdout/console", "a3 stdout/console",
        ])
        #expect(try await store.nextPendingAttempt() == Fixtures.time(20))
    }

    @Test func retryThenDelivered() async throws {
        let store = try await Self.store()
        try await store.recordAttempt(Self.outcome("a1", at: 11, .retry(at: Fixtures.time(50), error: "HTTP 503")))
        try await store.recordAttempt(Self.outcome("a1", at: 51, .retry(at: Fixtures.time(90), error: "HTTP 502")))
        var delivery = try #require(try await store.alerts(since: nil).first?.deliveries.first)
        #expect(delivery.status == .pending)
        #expect(delivery.attempts == 2)
        #expect(delivery.nextAttemptAt == Fixtures.time(90))
        #expect(delivery.lastError == "HTTP 502")
        #expect(!Self.ids(try await store.pendingDeliveries(dueBy: Fixtures.time(89), limit: 10)).contains("a1 stdout/console"))
        #expect(Self.ids(try await store.pendingDeliveries(dueBy: Fixtures.time(90), limit: 10)).last == "a1 stdout/console")

        try await store.recordAttempt(Self.outcome("a1", at: 91, .delivered))
        delivery = try #require(try await store.alerts(since: nil).first?.deliveries.first)
        #expect(delivery.status == .delivered)
        #expect(delivery.attempts == 3)
        #expect(delivery.deliveredAt == Fixtures.time(91))
    }

    @Test func dead() async throws {
        let store = try await Self.store()
        try await store.recordAttempt(Self.outcome("a2", at: 21, .dead(error: "HTTP 404")))
        let delivery = try #require(try await store.alerts(since: nil).dropFirst().first?.deliveries.first)
        #expect(delivery.status == .dead)
        #expect(delivery.attempts == 1)
        #expect(delivery.lastError == "HTTP 404")
        #expect(delivery.nextAttemptAt == nil)
        #expect(delivery.deliveredAt == nil)
        #expect(Self.ids(try await store.pendingDeliveries(dueBy: Fixtures.time(100), limit: 10)) == [
            "a1 stdout/console", "a3 stdout/console",
        ])
        #expect(try await store.counts().deadDeliveries == 1)
    }

    /// A late or repeated report never brings a finished delivery back.
    @Test func firstFinalOutcomeStands() async throws {
        let store = try await Self.store()
        try await store.recordAttempt(Self.outcome("a1", at: 12, .delivered))
        try await store.recordAttempt(Self.outcome("a1", at: 13, .retry(at: Fixtures.time(14), error: "late")))
        try await store.recordAttempt(Self.outcome("a1", at: 13, .dead(error: "late")))
        try await store.recordAttempt(Self.outcome("a1", at: 15, .delivered))
        let delivery = try #require(try await store.alerts(since: nil).first?.deliveries.first)
        #expect(delivery.status == .delivered)
        #expect(delivery.attempts == 1)
        #expect(delivery.deliveredAt == Fixtures.time(12))
        #expect(delivery.lastError == nil)
    }

    @Test func unknownDeliveryIsAnError() async throws {
        let store = try await Self.store()
        let error = await #expect(throws: StoreError.self) {
            try await store.recordAttempt(Self.outcome("a1", "webhook/nope", at: 12, .delivered))
        }
        #expect(error == .unknownDelivery(path: ":memory:", alertID: "a1", sink: "webhook/nope"))
        #expect(error?.description == "state database :memory:: no delivery of alert a1 to sink 'webhook/nope'")
    }

    @Test func alertLogSinceAndOrder() async throws {
        let store = try SQLiteAlertStore.inMemory()
        // Committed out of time order; the log is by quote time.
        for (id, time) in [("late", Int64(300)), ("early", 100), ("middle", 200), ("middle-2", 200)] {
            try await store.commit(Fixtures.commit(try Fixtures.alert(id: id, at: time), sinks: ["a/x", "b/y"], now: 400))
        }
        try await store.recordAttempt(Self.outcome("middle", "b/y", at: 401, .dead(error: "gone")))

        let all = try await store.alerts(since: nil)
        #expect(all.map(\.alert.id) == ["early", "middle", "middle-2", "late"])
        #expect(all.allSatisfy { $0.deliveries.map(\.sink) == ["a/x", "b/y"] })
        #expect(all[1].deliveries.map(\.status) == [.pending, .dead])
        #expect(all.allSatisfy { record in record.deliveries.allSatisfy { $0.notification.alert == record.alert } })
        #expect(try await store.alerts(since: Fixtures.time(200)).map(\.alert.id) == ["middle", "middle-2", "late"])
        #expect(try await store.alerts(since: Fixtures.time(301)).isEmpty)
    }

    /// The outbox is durable: a pending retry, its attempts and errors survive closing and
    /// reopening the file, and so does a finished delivery.
    @Test func survivesClosingAndReopening() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("state/pricewatch.db")
        do {
            let store = try SQLiteAlertStore.open(path: path)
            try await store.commit(Fixtures.commit(try Fixtures.alert(id: "a1"), sinks: ["stdout/console", "webhook/ops"], now: 10))
            try await store.recordAttempt(Self.outcome("a1", "webhook/ops", at: 11, .retry(at: Fixtures.time(70), error: "HTTP 503")))
            try await store.recordAttempt(Self.outcome("a1", "stdout/console", at: 11, .delivered))
            try store.close()
        }
        do {
            let store = try SQLiteAlertStore.open(path: path)
            #expect(try await store.nextPendingAttempt() == Fixtures.time(70))
            let due = try await store.pendingDeliveries(dueBy: Fixtures.time(70), limit: 10)
            #expect(due.count == 1)
            let pending = try #require(due.first)
            #expect(pending.notification.alert == (try Fixtures.alert(id: "a1")))
            #expect(pending.sink == "webhook/ops")
            #expect(pending.attempts == 1)
            #expect(pending.lastError == "HTTP 503")
            try await store.recordAttempt(Self.outcome("a1", "webhook/ops", at: 71, .delivered))
            try store.close()
        }
        let store = try SQLiteAlertStore.open(path: path)
        #expect(try await store.nextPendingAttempt() == nil)
        let deliveries = try #require(try await store.alerts(since: nil).first).deliveries
        #expect(deliveries.map(\.status) == [.delivered, .delivered])
        #expect(deliveries.map(\.deliveredAt) == [Fixtures.time(11), Fixtures.time(71)])
    }
}
