import Synchronization

/// Waits for a task's value, but stops waiting (and returns nil) as soon as the waiting task is
/// cancelled, even when the awaited task does not stop: a slow configuration parse never holds
/// up shutdown. The awaited task is cancelled too, for whatever it checks.
enum AbandonableWait {
    static func value<T: Sendable>(of task: Task<T, Never>) async -> T? {
        let slot = Slot<T>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
                guard slot.install(continuation) else {
                    continuation.resume(returning: nil)
                    return
                }
                Task { slot.finish(with: await task.value) }
            }
        } onCancel: {
            task.cancel()
            slot.finish(with: nil)
        }
    }

    /// The continuation and whether the wait is over, whichever of the value and the
    /// cancellation comes first.
    private final class Slot<T: Sendable>: Sendable {
        private let state = Mutex<(continuation: CheckedContinuation<T?, Never>?, finished: Bool)>((nil, false))

        /// False when the wait is already over (cancelled before it began).
        func install(_ continuation: CheckedContinuation<T?, Never>) -> Bool {
            state.withLock { state in
                guard !state.finished else { return false }
                state.continuation = continuation
                return true
            }
        }

        func finish(with value: T?) {
            let continuation = state.withLock { state -> CheckedContinuation<T?, Never>? in
                defer {
                    state.finished = true
                    state.continuation = nil
                }
                return state.continuation
            }
            continuation?.resume(returning: value)
        }
    }
}
