import PriceWatchCore
import PriceWatchServices
import PriceWatchStore
import Synchronization
import Testing

/// The housekeeping job: what it prunes, and that a failing step neither stops the others nor
/// escapes the job (the scheduler logs and records it).
@Suite struct HousekeepingTests {
    typealias F = EngineFixtures

    @Test func prunesHistoryAndTheAlertLogPastRetention() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let day: Int64 = 86_400
        let now = Timestamp(seconds: 100 * day)
        let configuration = F.configuration(rules: [F.rule("live", .above(F.decimal("1")))])   // retention 7d
        let quotes = [80, 90, 95, 99].map { F.quote("AAPL", "2", at: $0 * day) }
        let old = Alert(rule: F.rule("live", .above(F.decimal("1"))), quote: F.quote("AAPL", "2", at: 50 * day),
                        provider: "feed", trigger: .init(price: F.decimal("2")))
        try await store.commit(StoreCommit(provider: "feed", quotes: quotes, alerts: [PendingAlert(alert: old, sinks: ["s"])],
                                           now: old.time))
        try await store.recordAttempts([DeliveryOutcome(notificationID: old.id, sink: "s", at: old.time, result: .delivered)])
        let housekeeping = Housekeeping(store: store, configuration: { configuration }, wallClock: { now }, logger: F.logger)
        try await housekeeping.run()
        #expect(try await store.quotes(provider: "feed", symbol: "AAPL").map(\.time.seconds) == [90 * day, 95 * day, 99 * day],
                "quotes before the 7-day retention go, but the newest before the cutoff stays as the anchor")
        #expect(try await store.alerts(since: nil).isEmpty, "a delivered alert older than 30 days goes")
        #expect(housekeeping.job.name == "housekeeping")
        #expect(housekeeping.job.schedule.description == "hourly :00 UTC")
    }

    /// A retention store whose every step fails, counting the attempts.
    final class FailingStore: RetentionStore {
        struct Failure: Error, CustomStringConvertible { var description: String { "disk I/O error" } }
        let calls = Mutex<[String]>([])
        func pruneHistory(before cutoff: Timestamp) async throws -> Int { calls.withLock { $0.append("history") }; throw Failure() }
        func pruneAlerts(before cutoff: Timestamp) async throws -> Int { calls.withLock { $0.append("alerts") }; throw Failure() }
        func pruneRuleStates(keeping live: Set<RuleStateKey>, lastAlertBefore: Timestamp) async throws -> Int {
            calls.withLock { $0.append("states") }
            throw Failure()
        }
        func pruneNotifications(before cutoff: Timestamp) async throws -> Int {
            calls.withLock { $0.append("notifications") }
            throw Failure()
        }
        func optimize() async throws { calls.withLock { $0.append("optimize") }; throw Failure() }
    }

    @Test func aFailingStepDoesNotStopTheOthersAndIsReported() async throws {
        let store = FailingStore()
        let configuration = F.configuration(rules: [])
        let housekeeping = Housekeeping(store: store, configuration: { configuration }, wallClock: { Timestamp(seconds: 1_000_000) },
                                        logger: F.logger)
        let error = await #expect(throws: HousekeepingError.self) { try await housekeeping.run() }
        #expect(store.calls.withLock { $0 } == ["history", "alerts", "optimize"])
        #expect(error?.description == "pruning the quote history: disk I/O error; pruning the alert log: disk I/O error; "
            + "optimizing the database: disk I/O error")
    }
}
