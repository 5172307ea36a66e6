import PriceWatchCore
import PriceWatchStore
import Testing

/// `commit(_:)`: all or nothing, idempotent for replayed firings, safe from many tasks.
@Suite struct CommitTests {
    /// A commit with one of everything, and a rule state.
    static func fullCommit(alerts: [Alert], now: Int64 = 100) throws -> StoreCommit {
        StoreCommit(
            provider: "yahoo",
            quotes: [try Fixtures.quote(at: 1), try Fixtures.quote("MSFT", price: "410.5", at: 1)],
            states: [RuleStateKey(rule: "aapl-200", symbol: "AAPL"): StoredRuleState(
                fingerprint: "f", state: RuleState(phase: .fired, lastAlertAt: Fixtures.time(1), alertCount: 1))],
            alerts: alerts.map { PendingAlert(alert: $0, sinks: ["stdout/console", "webhook/ops"]) },
            now: Fixtures.time(now))
    }

    /// The commit the opening tests store before closing and reopening a file.
    static func fullCommitForReopen() throws -> StoreCommit {
        try fullCommit(alerts: [try Fixtures.alert(id: "a1")])
    }

    static let nothing = StoreCounts(quotes: 0, ruleStates: 0, alerts: 0, pendingDeliveries: 0,
                                     deliveredDeliveries: 0, deadDeliveries: 0)

    @Test func emptyCommitWritesNothing() async throws {
        let store = try SQLiteAlertStore.inMemory()
        try await store.commit(StoreCommit(provider: "yahoo", now: Fixtures.time(0)))
        #expect(try await store.counts() == Self.nothing)
    }

    @Test func fullCommitLandsWhole() async throws {
        let store = try SQLiteAlertStore.inMemory()
        try await store.commit(try Self.fullCommit(alerts: [try Fixtures.alert(id: "a1"), try Fixtures.alert(id: "a2")]))
        #expect(try await store.counts() == StoreCounts(
            quotes: 2, ruleStates: 1, alerts: 2, pendingDeliveries: 4, deliveredDeliveries: 0, deadDeliveries: 0))
    }

    /// The second alert breaks the schema's CHECK (an empty id) after the quotes, the state and
    /// a first alert with its deliveries were written: none of them may stay.
    @Test func failedAlertInsertLeavesNothing() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let broken = try Self.fullCommit(alerts: [try Fixtures.alert(id: "a1"), try Fixtures.alert(id: "")])
        let error = await #expect(throws: StoreError.self) { try await store.commit(broken) }
        #expect(error?.description.hasPrefix("state database :memory:: commit: CHECK constraint failed") == true)
        #expect(try await store.counts() == Self.nothing)
        #expect(try await store.ruleStates().isEmpty)
        #expect(try await store.history(provider: "yahoo", symbol: "AAPL", since: Fixtures.time(0)).isEmpty)
    }

    /// The failure comes last: the delivery to a sink with an empty name.
    @Test func failedDeliveryInsertLeavesNothing() async throws {
        let store = try SQLiteAlertStore.inMemory()
        var broken = try Self.fullCommit(alerts: [try Fixtures.alert(id: "a1")])
        broken.alerts[0].sinks = ["stdout/console", ""]
        await #expect(throws: StoreError.self) { try await store.commit(broken) }
        #expect(try await store.counts() == Self.nothing)
    }

    /// A trigger the test adds to the file through its own connection aborts the insert into
    /// `alert` (as a full disk or an I/O error would): the whole commit is rolled back, and the
    /// store stays usable.
    @Test func abortedTransactionLeavesNothingAndStoreStaysUsable() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("pricewatch.db")
        let store = try SQLiteAlertStore.open(path: path)
        try await store.commit(StoreCommit(provider: "yahoo", quotes: [try Fixtures.quote(at: 0)], now: Fixtures.time(0)))
        try RawDatabase(path: path).execute("""
            CREATE TRIGGER refuse_alert BEFORE INSERT ON alert
            BEGIN SELECT RAISE(ABORT, 'disk on fire'); END
            """)

        let commit = try Self.fullCommit(alerts: [try Fixtures.alert(id: "a1")])
        let error = await #expect(throws: StoreError.self) { try await store.commit(commit) }
        #expect(error == .failed(path: path, operation: "commit", reason: "disk on fire"))
        #expect(error?.description == "state database \(path): commit: disk on fire")
        #expect(try await store.counts() == StoreCounts(
            quotes: 1, ruleStates: 0, alerts: 0, pendingDeliveries: 0, deliveredDeliveries: 0, deadDeliveries: 0))

        try RawDatabase(path: path).execute("DROP TRIGGER refuse_alert")
        try await store.commit(commit)
        #expect(try await store.counts() == StoreCounts(
            quotes: 3, ruleStates: 1, alerts: 1, pendingDeliveries: 2, deliveredDeliveries: 0, deadDeliveries: 0))
    }

    /// After a crash between commit and delivery, the engine replays the same quotes and fires
    /// the same alerts (same ids): nothing is stored or queued twice.
    @Test func replayedCommitDuplicatesNothing() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let commit = try Self.fullCommit(alerts: [try Fixtures.alert(id: "a1")])
        try await store.commit(commit)
        var replay = commit
        replay.now = Fixtures.time(500)
        try await store.commit(replay)

        #expect(try await store.counts() == StoreCounts(
            quotes: 2, ruleStates: 1, alerts: 1, pendingDeliveries: 2, deliveredDeliveries: 0, deadDeliveries: 0))
        let record = try #require(try await store.alerts(since: nil).first)
        #expect(record.deliveries.map(\.sink) == ["stdout/console", "webhook/ops"])
        #expect(record.deliveries.allSatisfy { $0.createdAt == Fixtures.time(100) })
    }

    /// A replayed alert gets no new deliveries, even to other sinks, and a delivered one is
    /// not queued again.
    @Test func replayedAlertIsNotQueuedAgain() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let alert = try Fixtures.alert(id: "a1")
        try await store.commit(Fixtures.commit(alert, sinks: ["stdout/console"], now: 1))
        try await store.recordAttempt(DeliveryOutcome(notificationID: "a1", sink: "stdout/console", at: Fixtures.time(2),
                                                      result: .delivered))
        try await store.commit(Fixtures.commit(alert, sinks: ["stdout/console", "email/me"], now: 3))

        #expect(try await store.pendingDeliveries(dueBy: Fixtures.time(10), limit: 10).isEmpty)
        let deliveries = try await store.alerts(since: nil).flatMap(\.deliveries)
        #expect(deliveries.map(\.sink) == ["stdout/console"])
        #expect(deliveries.map(\.status) == [.delivered])
    }

    @Test func sinkNamedTwiceIsQueuedOnce() async throws {
        let store = try SQLiteAlertStore.inMemory()
        try await store.commit(Fixtures.commit(try Fixtures.alert(id: "a1"), sinks: ["stdout/console", "stdout/console"]))
        #expect(try await store.counts().pendingDeliveries == 1)
    }

    @Test func quoteWithStoredTimeIsIgnored() async throws {
        let store = try SQLiteAlertStore.inMemory()
        try await store.commit(StoreCommit(provider: "yahoo", quotes: [try Fixtures.quote(price: "1", at: 0)],
                                           now: Fixtures.time(0)))
        try await store.commit(StoreCommit(provider: "yahoo",
                                           quotes: [try Fixtures.quote(price: "2", at: 0), try Fixtures.quote(price: "3", at: 1)],
                                           now: Fixtures.time(1)))
        let history = try await store.history(provider: "yahoo", symbol: "AAPL", since: Fixtures.time(-10))
        #expect(history.map(\.price) == [try Fixtures.decimal("1"), try Fixtures.decimal("3")])
    }

    @Test func concurrentCommitsInMemoryAllLand() async throws {
        try await Self.commitConcurrently(into: try SQLiteAlertStore.inMemory())
    }

    @Test func concurrentCommitsToAFileAllLand() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteAlertStore.open(path: directory.file("pricewatch.db"))
        try await Self.commitConcurrently(into: store)
        try store.close()
        let reopened = try SQLiteAlertStore.open(path: directory.file("pricewatch.db"))
        #expect(try await reopened.counts().alerts == 64)
    }

    /// 64 tasks commit at once, each its own symbol, state and alert, while readers read.
    static func commitConcurrently(into store: SQLiteAlertStore) async throws {
        let count = 64
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask {
                    let symbol = "SYM\(index)"
                    let alert = try Fixtures.alert(id: "alert-\(index)", symbol: symbol, at: Int64(index))
                    try await store.commit(StoreCommit(
                        provider: "yahoo",
                        quotes: [try Fixtures.quote(symbol, at: Int64(index))],
                        states: [RuleStateKey(rule: "r", symbol: symbol): StoredRuleState(fingerprint: "f", state: .initial)],
                        alerts: [PendingAlert(alert: alert, sinks: ["stdout/console", "webhook/ops"])],
                        now: Fixtures.time(Int64(index))))
                }
                group.addTask { _ = try await store.pendingDeliveries(dueBy: Fixtures.time(1000), limit: 5) }
            }
            try await group.waitForAll()
        }
        #expect(try await store.counts() == StoreCounts(
            quotes: count, ruleStates: count, alerts: count, pendingDeliveries: 2 * count,
            deliveredDeliveries: 0, deadDeliveries: 0))
        #expect(try await store.ruleStates().count == count)
    }
}
