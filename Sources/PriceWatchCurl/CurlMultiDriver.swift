import CCurl
import Synchronization

/// The thread side of ``CurlTransferLoop``: one `curl_multi` handle driven by one dedicated
/// thread, fed through a lock-protected queue and woken with `curl_multi_wakeup`.
///
/// Only the loop thread calls into the multi handle, except `curl_multi_wakeup`, which libcurl
/// allows from any thread; it is always called with the queue locked, so the loop thread
/// cannot have cleaned the multi handle up in between.
final class CurlMultiDriver: @unchecked Sendable {
    enum Outcome: Sendable {
        case completed(CURLcode)
        case cancelled
    }

    struct Submission: @unchecked Sendable {
        let id: UInt64
        let handle: CurlEasyHandle
        let continuation: CheckedContinuation<Outcome, Never>
    }

    private struct Queue {
        var nextID: UInt64 = 0
        var pending: [Submission] = []
        var cancelled: [UInt64] = []
        var stopping = false
    }

    private let multi: UnsafeMutableRawPointer?
    private let queue = Mutex(Queue())
    // Touched only by the loop thread; keyed by the easy handle's address.
    private var active: [UnsafeMutableRawPointer: Submission] = [:]

    init() {
        multi = CurlGlobal.initialised ? curl_multi_init() : nil
    }

    /// Starts the loop thread; it ends after ``stop()``.
    func start(name: String) {
        guard multi != nil else { return }
        CurlLoopThread.start(name: name) { [self] in run() }
    }

    func makeID() -> UInt64 {
        queue.withLock { queue in
            queue.nextID += 1
            return queue.nextID
        }
    }

    /// Queues `submission`, or completes it at once when the calling task is already cancelled
    /// or the loop cannot run. Must be called from the task that awaits the continuation.
    func submit(_ submission: Submission) {
        let refusal: Outcome? = queue.withLock { queue in
            // Checked under the lock: a cancellation handler that ran before this found nothing
            // to cancel, but it set the flag first.
            if Task.isCancelled { return .cancelled }
            guard let multi, !queue.stopping else { return .completed(CURLE_FAILED_INIT) }
            queue.pending.append(submission)
            curl_multi_wakeup(multi)
            return nil
        }
        if let refusal { submission.continuation.resume(returning: refusal) }
    }

    /// Ends the transfer `id` promptly with `.cancelled`, wherever it is; a no-op once it ended.
    func cancel(_ id: UInt64) {
        let withdrawn: Submission? = queue.withLock { queue in
            if let index = queue.pending.firstIndex(where: { $0.id == id }) {
                return queue.pending.remove(at: index)
            }
            guard let multi, !queue.stopping else { return nil }
            queue.cancelled.append(id)
            curl_multi_wakeup(multi)
            return nil
        }
        withdrawn?.continuation.resume(returning: .cancelled)
    }

    /// Asks the loop thread to cancel what runs and exit.
    func stop() {
        queue.withLock { queue in
            queue.stopping = true
            if let multi { curl_multi_wakeup(multi) }
        }
    }

    private func run() {
        guard let multi else { return }
        defer { curl_multi_cleanup(multi) }
        var running: Int32 = 0
        while true {
            let (added, cancelled, stopping) = queue.withLock { queue in
                defer {
                    queue.pending = []
                    queue.cancelled = []
                }
                return (queue.pending, queue.cancelled, queue.stopping)
            }
            for submission in added {
                submission.handle.clearErrorDetail()
                if curl_multi_add_handle(multi, submission.handle.raw) == CURLM_OK {
                    active[submission.handle.raw] = submission
                } else {
                    submission.continuation.resume(returning: .completed(CURLE_FAILED_INIT))
                }
            }
            for id in cancelled {
                if let key = active.first(where: { $0.value.id == id })?.key { finish(key, .cancelled) }
            }
            if stopping {
                for key in Array(active.keys) { finish(key, .cancelled) }
                return
            }
            curl_multi_perform(multi, &running)
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
                // Read before removing: the message does not outlive curl_multi_remove_handle.
                let code = message.pointee.data.result
                finish(easy, .completed(code))
            }
            // Waits for socket activity, libcurl's next timeout, or curl_multi_wakeup.
            curl_multi_poll(multi, nil, 0, 1000, nil)
        }
    }

    private func finish(_ easy: UnsafeMutableRawPointer, _ outcome: Outcome) {
        guard let multi else { return }
        curl_multi_remove_handle(multi, easy)
        active.removeValue(forKey: easy)?.continuation.resume(returning: outcome)
    }
}
