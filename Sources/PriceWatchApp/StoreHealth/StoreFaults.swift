import PriceWatchStore
import Synchronization

/// The first fault that made the state unusable (``StoreError/makesTheStateUnusable``: a
/// damaged, emptied, replaced or foreign file), as the store reports it.
///
/// The daemon hands ``report(_:)`` to ``SQLiteAlertStore/open(path:onUnusable:)``: the store
/// calls it from its own read and write path, so every reader of the store (the evaluator, the
/// dispatcher, the paper fills, the silence gate, digests, history, housekeeping) raises the
/// fault, and none can bypass it. The first fault is kept and wakes ``firstFault()``, where the
/// daemon's ``StoreFaultService`` waits to stop the daemon with the store-unusable exit status,
/// instead of running on with a store that fails every poll and never alerts.
public final class StoreFaults: Sendable {
    private struct State {
        var fault: StoreError?
        var waiters: [CheckedContinuation<StoreError?, Never>] = []
        var finished = false
    }

    private let state = Mutex(State())

    public init() {}

    /// The first fault that made the state unusable, if one happened.
    public var fault: StoreError? { state.withLock { $0.fault } }

    /// Keeps `error` when it is the first that makes the state unusable and wakes the waiters;
    /// other errors (an outage, a failed statement) are ignored.
    public func report(_ error: StoreError) {
        guard error.makesTheStateUnusable else { return }
        let waiters = state.withLock { state -> [CheckedContinuation<StoreError?, Never>] in
            guard state.fault == nil else { return [] }
            state.fault = error
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: error) }
    }

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
}
