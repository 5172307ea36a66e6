import PriceWatchCore
import Synchronization

/// A sink that records what it is given and fails on demand: the test stand-in for a
/// receiver (the real sinks have their own tests against real servers).
public final class RecordingSink: NotificationSink, Sendable {
    public let identity: String
    private let state = Mutex<State>(State())

    struct State {
        var delivered: [Alert] = []
        var groups: [[Alert]] = []
        var failures: [SinkError] = []
        var attempts = 0
        var gate: CheckedContinuation<Void, Never>?
        var blocked = false
    }

    public init(name: String = "recorder") { identity = "recording/\(name)" }

    /// Alerts delivered so far, in order.
    public var delivered: [Alert] { state.withLock { $0.delivered } }
    /// Groups delivered so far (through the group form), in order; their alerts are also in
    /// ``delivered``.
    public var groups: [[Alert]] { state.withLock { $0.groups } }
    /// Attempts so far (successful or not); a group is one attempt.
    public var attempts: Int { state.withLock { $0.attempts } }

    /// The next attempts fail with these errors, in order.
    public func failNext(_ errors: [SinkError]) { state.withLock { $0.failures += errors } }

    /// Deliveries block until ``unblock()``.
    public func block() { state.withLock { $0.blocked = true } }

    public func unblock() {
        let gate = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.blocked = false
            defer { state.gate = nil }
            return state.gate
        }
        gate?.resume()
    }

    public func deliver(_ alert: Alert) async throws(SinkError) {
        try await attempt([alert])
    }

    /// One attempt for the whole group: it fails or succeeds as a whole.
    public func deliver(_ alerts: [Alert]) async throws(SinkError) {
        try await attempt(alerts, group: true)
    }

    private func attempt(_ alerts: [Alert], group: Bool = false) async throws(SinkError) {
        let mustWait = state.withLock { state -> Bool in
            state.attempts += 1
            return state.blocked
        }
        if mustWait {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    guard state.blocked else { return true }
                    state.gate = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
        let failure = state.withLock { state -> SinkError? in
            if !state.failures.isEmpty { return state.failures.removeFirst() }
            state.delivered += alerts
            if group { state.groups.append(alerts) }
            return nil
        }
        if let failure { throw failure }
    }
}
