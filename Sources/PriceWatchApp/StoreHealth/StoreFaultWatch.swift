import PriceWatchCore
import PriceWatchStore
import Synchronization

/// Every role of the store the daemon uses, as one type (the SQLite store has them all).
public typealias DaemonStore = RuleStateStore & QuoteHistoryStore & OutboxStore & AlertLogStore & RetentionStore & JobRunStore

/// A store (every role port the daemon uses) that passes every call to the store it wraps and watches the errors for
/// ones that make the state unusable (``StoreError/makesTheStateUnusable``: a damaged file).
///
/// The first such error is kept and wakes ``firstFault()``; the daemon's ``StoreFaultService``
/// waits there and stops the daemon with the store-unusable exit status, instead of running on
/// with a store that fails every poll and never alerts.
public final class StoreFaultWatch: DaemonStore {
    private struct State {
        var fault: StoreError?
        var waiters: [CheckedContinuation<StoreError?, Never>] = []
        var finished = false
    }

    private let store: any DaemonStore
    private let state = Mutex(State())

    public init(_ store: any DaemonStore) {
        self.store = store
    }

    /// The first fault that made the state unusable, if one happened.
    public var fault: StoreError? { state.withLock { $0.fault } }

    /// Waits for the first fault; nil when ``finish()`` was called (or the task is cancelled)
    /// before one happened.
    public func firstFault() async -> StoreError? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<StoreError?, Never>) in
                let now: StoreError?? = state.withLock { state in
                    if let fault = state.fault { return .some(fault) }
                    if state.finished || Task.isCancelled { return .some(nil) }
                    state.waiters.append(continuation)
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            finish()
        }
    }

    /// Wakes every waiter of ``firstFault()`` with nil (the daemon is stopping).
    public func finish() {
        let waiters = state.withLock { state in
            state.finished = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }

    /// Records `error` when it makes the state unusable, and passes it on.
    func watch<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as StoreError where error.makesTheStateUnusable {
            let waiters = state.withLock { state -> [CheckedContinuation<StoreError?, Never>] in
                guard state.fault == nil else { return [] }
                state.fault = error
                defer { state.waiters.removeAll() }
                return state.waiters
            }
            for waiter in waiters { waiter.resume(returning: error) }
            throw error
        }
    }

    // MARK: - RuleStateStore, QuoteHistoryStore

    public func ruleStates() async throws -> [RuleStateKey: StoredRuleState] {
        try await watch { try await store.ruleStates() }
    }

    public func commit(_ commit: StoreCommit) async throws {
        try await watch { try await store.commit(commit) }
    }

    public func windowHistories(_ requests: [WindowHistoryRequest]) async throws -> [[HistoryPoint]] {
        try await watch { try await store.windowHistories(requests) }
    }

    public func latestQuoteDetails() async throws -> [QuoteSource: Quote] {
        try await watch { try await store.latestQuoteDetails() }
    }

    // MARK: - OutboxStore

    @discardableResult
    public func enqueue(_ notification: OutgoingNotification, sinks: [String], now: Timestamp) async throws -> Bool {
        try await watch { try await store.enqueue(notification, sinks: sinks, now: now) }
    }

    public func pendingDeliveries(sink: String, dueBy: Timestamp, limit: Int) async throws -> [Delivery] {
        try await watch { try await store.pendingDeliveries(sink: sink, dueBy: dueBy, limit: limit) }
    }

    public func pendingSinks() async throws -> [String: Timestamp] {
        try await watch { try await store.pendingSinks() }
    }

    public func pendingDeliveryCount() async throws -> Int {
        try await watch { try await store.pendingDeliveryCount() }
    }

    public func recordAttempts(_ outcomes: [DeliveryOutcome]) async throws {
        try await watch { try await store.recordAttempts(outcomes) }
    }

    // MARK: - AlertLogStore

    public func alerts(since: Timestamp?) async throws -> [AlertRecord] {
        try await watch { try await store.alerts(since: since) }
    }

    // MARK: - RetentionStore

    public func pruneHistory(before cutoff: Timestamp) async throws -> Int {
        try await watch { try await store.pruneHistory(before: cutoff) }
    }

    public func pruneAlerts(before cutoff: Timestamp) async throws -> Int {
        try await watch { try await store.pruneAlerts(before: cutoff) }
    }

    public func pruneNotifications(before cutoff: Timestamp) async throws -> Int {
        try await watch { try await store.pruneNotifications(before: cutoff) }
    }

    public func pruneRuleStates(keeping live: Set<RuleStateKey>, lastAlertBefore: Timestamp) async throws -> Int {
        try await watch { try await store.pruneRuleStates(keeping: live, lastAlertBefore: lastAlertBefore) }
    }

    public func optimize() async throws {
        try await watch { try await store.optimize() }
    }

    // MARK: - JobRunStore

    public func jobRuns() async throws -> [String: JobRun] {
        try await watch { try await store.jobRuns() }
    }

    public func recordJobRun(_ run: JobRun) async throws {
        try await watch { try await store.recordJobRun(run) }
    }
}
