import PriceWatchCore
import Synchronization

/// Whether polling and delivery are alive, for `/healthz`: each poller has polled recently
/// (within three intervals, at least a minute, of its last poll or of the start) and the
/// delivery service runs.
public final class DaemonLiveness: Sendable {
    struct State {
        var pollers: [String: Duration] = [:]
        var readyAt: Timestamp?
        var lastPoll: [String: Timestamp] = [:]
        var deliveryRunning = false
    }

    private let state = Mutex(State())

    public init() {}

    /// Polling runs with `pollers` (name and interval) since `time`.
    public func ready(pollers: [String: Duration], at time: Timestamp) {
        state.withLock {
            $0.pollers = pollers
            $0.readyAt = time
        }
    }

    /// `provider` finished a poll at `time`.
    public func polled(provider: String, at time: Timestamp) {
        state.withLock { $0.lastPoll[provider] = time }
    }

    /// The delivery service started (`true`) or stopped (`false`).
    public func deliveryRunning(_ running: Bool) {
        state.withLock { $0.deliveryRunning = running }
    }

    /// Each polling provider's interval and last poll (`nil`: none yet).
    public func pollers() -> [(name: String, interval: Duration, lastPoll: Timestamp?)] {
        state.withLock { state in
            state.pollers.sorted { $0.key < $1.key }.map { ($0.key, $0.value, state.lastPoll[$0.key]) }
        }
    }

    /// Empty when alive at `now`; otherwise each reason it is not, one line each.
    public func problems(at now: Timestamp) -> [String] {
        state.withLock { state in
            var problems: [String] = []
            guard let readyAt = state.readyAt else { return ["the daemon is starting"] }
            if !state.deliveryRunning { problems.append("delivery: the dispatcher is not running") }
            for (provider, interval) in state.pollers.sorted(by: { $0.key < $1.key }) {
                let allowed = max(interval * 3, .seconds(60))
                let last = state.lastPoll[provider] ?? readyAt
                let age = Duration.milliseconds(now.milliseconds - last.milliseconds)
                if age > allowed {
                    let what = state.lastPoll[provider] == nil ? "no poll since the start" : "last poll \(last.rfc3339)"
                    problems.append("polling: provider '\(provider)' has not polled for \(DurationText.format(age)) (\(what))")
                }
            }
            return problems
        }
    }
}
