import PriceWatchApp
import PriceWatchCore
import PriceWatchStore
import Synchronization

/// A real in-memory SQLite store whose commits the test can make fail, as a full disk or an I/O
/// error would (``StoreError/unavailable(path:operation:reason:)``), or with another error.
final class FlakyStore: DaemonStore {
    let store: SQLiteAlertStore
    private let failure = Mutex<(any Error)?>(nil)
    private let refused = Mutex(0)

    init() throws {
        store = try SQLiteAlertStore.inMemory()
    }

    static let diskFull = StoreError.unavailable(path: ":memory:", operation: "commit", reason: "database or disk is full")

    /// Makes every commit fail with `error` (nil: succeed again).
    func failCommits(with error: (any Error)?) { failure.withLock { $0 = error } }

    /// How many commits were refused.
    var refusedCommits: Int { refused.withLock { $0 } }

    func commit(_ commit: StoreCommit) async throws {
        if let error = failure.withLock({ $0 }) {
            refused.withLock { $0 += 1 }
            throw error
        }
        try await store.commit(commit)
    }

    func ruleStates() async throws -> [RuleStateKey: StoredRuleState] { try await store.ruleStates() }
    func windowHistories(_ requests: [WindowHistoryRequest]) async throws -> [[HistoryPoint]] {
        try await store.windowHistories(requests)
    }
    func latestQuoteDetails() async throws -> [QuoteSource: Quote] { try await store.latestQuoteDetails() }
    func alerts(since: Timestamp?) async throws -> [AlertRecord] { try await store.alerts(since: since) }
    func enqueue(_ notification: OutgoingNotification, sinks: [String], now: Timestamp) async throws -> Bool {
        try await store.enqueue(notification, sinks: sinks, now: now)
    }
    func pendingDeliveries(sink: String, dueBy: Timestamp, limit: Int) async throws -> [Delivery] {
        try await store.pendingDeliveries(sink: sink, dueBy: dueBy, limit: limit)
    }
    func pendingSinks() async throws -> [String: Timestamp] { try await store.pendingSinks() }
    func pendingDeliveryCount() async throws -> Int { try await store.pendingDeliveryCount() }
    func recordAttempts(_ outcomes: [DeliveryOutcome]) async throws { try await store.recordAttempts(outcomes) }
    func pruneHistory(before cutoff: Timestamp) async throws -> Int { try await store.pruneHistory(before: cutoff) }
    func pruneAlerts(before cutoff: Timestamp) async throws -> Int { try await store.pruneAlerts(before: cutoff) }
    func pruneNotifications(before cutoff: Timestamp) async throws -> Int { try await store.pruneNotifications(before: cutoff) }
    func pruneRuleStates(keeping live: Set<RuleStateKey>, lastAlertBefore: Timestamp) async throws -> Int {
        try await store.pruneRuleStates(keeping: live, lastAlertBefore: lastAlertBefore)
    }
    func optimize() async throws { try await store.optimize() }
    func jobRuns() async throws -> [String: JobRun] { try await store.jobRuns() }
    func recordJobRun(_ run: JobRun) async throws { try await store.recordJobRun(run) }
}
