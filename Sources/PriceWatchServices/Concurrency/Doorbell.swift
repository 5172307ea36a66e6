import Synchronization

/// A wake-up signal between tasks: the evaluator rings it when it queues deliveries, the
/// dispatcher waits on it (or on its next due time, whichever comes first).
///
/// Rings are counted, so a ring that happens while nobody waits is not lost: a waiter that
/// passes the generation it last saw returns at once if a ring came since.
public final class Doorbell: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// The number of rings so far.
    public var generation: UInt64 { state.withLock { $0.generation } }

    /// Wakes every waiter.
    public func ring() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.generation += 1
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns when the bell rings after `seen` (at once if it already has), or when the task
    /// is cancelled.
    public func wait(after seen: UInt64) async {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.generation != seen || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume()
        }
    }

    /// Waits for a ring after `seen` or until `deadline` on `clock` (nil: no deadline).
    public func wait<C: Clock>(after seen: UInt64, until deadline: C.Instant?, on clock: C) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.wait(after: seen) }
            if let deadline {
                group.addTask { try? await clock.sleep(until: deadline, tolerance: nil) }
            }
            await group.next()
            group.cancelAll()
        }
    }
}
