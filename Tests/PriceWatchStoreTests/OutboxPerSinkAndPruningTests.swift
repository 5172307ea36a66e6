import Foundation
import PriceWatchCore
import PriceWatchStore
import Testing

/// The outbox read per sink, group outcomes in one transaction, pruning of the alert log and
/// of stale rule states, and read-only opening next to a writer.
@Suite struct OutboxPerSinkAndPruningTests {
    static func outcome(_ id: String, _ sink: String, at seconds: Int64, _ result: DeliveryOutcome.Result) -> DeliveryOutcome {
        DeliveryOutcome(notificationID: id, sink: sink, at: Fixtures.time(seconds), result: result)
    }

    /// 300 alerts for a stuck sink queued before one for a healthy sink: the healthy one's
    /// delivery is found by its own query whatever the stuck sink holds.
    @Test func aSinkWithABacklogNeverHidesAnotherSinksDueDeliveries() async throws {
        let store = try SQLiteAlertStore.inMemory()
        var pending: [PendingAlert] = []
        for index in 0..<300 { pending.append(PendingAlert(alert: try Fixtures.alert(id: "s\(index)", at: Int64(index)), sinks: ["stuck"])) }
        try await store.commit(StoreCommit(provider: "yahoo", alerts: pending, now: Fixtures.time(0)))
        try await store.commit(Fixtures.commit(try Fixtures.alert(id: "h1", at: 400), sinks: ["healthy"], now: 5))

        let healthy = try await store.pendingDeliveries(sink: "healthy", dueBy: Fixtures.time(10), limit: 4)
        #expect(healthy.map(\.notification.id) == ["h1"])
        #expect(try await store.pendingDeliveries(sink: "stuck", dueBy: Fixtures.time(10), limit: 3).map(\.notification.id) == ["s0", "s1", "s2"])
        #expect(try await store.pendingDeliveries(sink: "healthy", dueBy: Fixtures.time(4), limit: 4).isEmpty)
        #expect(try await store.pendingSinks() == ["stuck": Fixtures.time(0), "healthy": Fixtures.time(5)])

        try await store.recordAttempt(Self.outcome("h1", "healthy", at: 6, .retry(at: Fixtures.time(60), error: "HTTP 503")))
        #expect(try await store.pendingSinks()["healthy"] == Fixtures.time(60))
        try await store.recordAttempt(Self.outcome("h1", "healthy", at: 60, .delivered))
        #expect(try await store.pendingSinks()["healthy"] == nil)
    }

    @Test func aGroupsOutcomesAreRecordedTogetherOrNotAtAll() async throws {
        let store = try SQLiteAlertStore.inMemory()
        for id in ["a1", "a2"] { try await store.commit(Fixtures.commit(try Fixtures.alert(id: id), sinks: ["hook"])) }
        try await store.recordAttempts([Self.outcome("a1", "hook", at: 1, .retry(at: Fixtures.time(5), error: "HTTP 500")),
                                        Self.outcome("a2", "hook", at: 1, .retry(at: Fixtures.time(5), error: "HTTP 500"))])
        let retried = try await store.alerts(since: nil).flatMap(\.deliveries)
        #expect(retried.map(\.attempts) == [1, 1])
        #expect(retried.map(\.nextAttemptAt) == [Fixtures.time(5), Fixtures.time(5)])

        // One unknown delivery fails the whole group: a1 keeps its state.
        await #expect(throws: StoreError.self) {
            try await store.recordAttempts([Self.outcome("a1", "hook", at: 5, .delivered),
                                            Self.outcome("nope", "hook", at: 5, .delivered)])
        }
        #expect(try await store.alerts(since: nil).flatMap(\.deliveries).map(\.status) == [.pending, .pending])
    }

    /// Old alerts go once all their deliveries are final; an alert with a pending delivery
    /// stays however old it is; recent alerts stay.
    @Test func pruningKeepsPendingAndRecentAlerts() async throws {
        let store = try SQLiteAlertStore.inMemory()
        try await store.commit(Fixtures.commit(try Fixtures.alert(id: "old-done", at: 0), sinks: ["a", "b"], now: 0))
        try await store.commit(Fixtures.commit(try Fixtures.alert(id: "old-pending", at: 1), sinks: ["a", "b"], now: 1))
        try await store.commit(Fixtures.commit(try Fixtures.alert(id: "recent", at: 500), sinks: ["a"], now: 500))
        try await store.recordAttempts([Self.outcome("old-done", "a", at: 2, .delivered), Self.outcome("old-done", "b", at: 2, .dead(error: "HTTP 404")),
                                        Self.outcome("old-pending", "a", at: 2, .delivered),
                                        Self.outcome("recent", "a", at: 501, .delivered)])

        #expect(try await store.pruneAlerts(before: Fixtures.time(100)) == 1)
        #expect(try await store.alerts(since: nil).map(\.alert.id) == ["old-pending", "recent"])
        let counts = try await store.counts()
        #expect(counts.alerts == 2)
        #expect(counts.pendingDeliveries + counts.deliveredDeliveries + counts.deadDeliveries == 3, "deliveries went with their alert")
        #expect(try await store.pruneAlerts(before: Fixtures.time(100)) == 0)
    }

    @Test func pruningRuleStatesKeepsLiveOnesAndRecentlyAlertedOnes() async throws {
        let store = try SQLiteAlertStore.inMemory()
        func state(lastAlert: Int64?) -> StoredRuleState {
            StoredRuleState(fingerprint: "f", state: RuleState(phase: lastAlert == nil ? .armed : .fired,
                                                               lastAlertAt: lastAlert.map(Fixtures.time), alertCount: lastAlert == nil ? 0 : 1, side: nil))
        }
        let live = RuleStateKey(rule: "live", symbol: "AAPL")
        let removedSymbol = RuleStateKey(rule: "live", symbol: "MSFT")
        let removedQuiet = RuleStateKey(rule: "gone", symbol: "AAPL")
        let removedRecent = RuleStateKey(rule: "gone-recent", symbol: "AAPL")
        try await store.commit(StoreCommit(provider: "yahoo", states: [
            live: state(lastAlert: nil), removedSymbol: state(lastAlert: 10), removedQuiet: state(lastAlert: nil),
            removedRecent: state(lastAlert: 900),
        ], now: Fixtures.time(1_000)))
        #expect(try await store.pruneRuleStates(keeping: [live], lastAlertBefore: Fixtures.time(500)) == 2)
        #expect(Set(try await store.ruleStates().keys) == [live, removedRecent])
    }

    /// A read-only store sees what a writer commits and cannot write.
    @Test func readOnlyOpeningReadsNextToAWriter() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("pricewatch.db")
        let writer = try SQLiteAlertStore.open(path: path)
        try await writer.commit(Fixtures.commit(try Fixtures.alert(id: "a1"), sinks: ["hook"]))
        let reader = try SQLiteAlertStore.openReadOnly(path: path)
        #expect(try await reader.alerts(since: nil).map(\.alert.id) == ["a1"])
        try await writer.commit(Fixtures.commit(try Fixtures.alert(id: "a2", at: 5), sinks: ["hook"]))
        #expect(try await reader.alerts(since: nil).map(\.alert.id) == ["a1", "a2"])
        await #expect(throws: StoreError.self) {
            try await reader.commit(Fixtures.commit(try Fixtures.alert(id: "a3", at: 9), sinks: ["hook"]))
        }
        try reader.close()
        try writer.close()

        // Closed cleanly (no -wal, no -shm left), the file still opens read-only.
        let again = try SQLiteAlertStore.openReadOnly(path: path)
        #expect(try await again.alerts(since: nil).count == 2)
        try again.close()
    }

    @Test func readOnlyOpeningRefusesAMissingFileWithoutCreatingIt() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("state/pricewatch.db")
        let error = #expect(throws: StoreError.self) { try SQLiteAlertStore.openReadOnly(path: path) }
        #expect(error?.description.hasPrefix("state database \(path): cannot open: no such file") == true)
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
