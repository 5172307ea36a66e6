import NIOCore
import Synchronization

/// The endpoint's open connections and how long each has waited for its request to finish
/// arriving, so that slow clients cannot hold every connection: when a new connection makes
/// more than `limit` open, the one that has waited longest for its request (a slowloris client,
/// or an idle keep-alive connection) is closed to make room. Connections being answered (an
/// event stream included) are never closed for room.
final class SlowConnections: Sendable {
    private struct Entry {
        let channel: any Channel
        /// Since when it waits for a request to finish arriving; nil while one is answered.
        var waitingSince: NIODeadline?
    }

    private struct State {
        var next = 0
        var entries: [Int: Entry] = [:]
    }

    /// The connections kept open before the longest-waiting one is closed for a new one.
    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = max(limit, 1)
    }

    /// Registers `channel` (waiting for its first request); its key. Closes the connection that
    /// has waited longest when this one is over the limit.
    func opened(_ channel: any Channel, at now: NIODeadline) -> Int {
        let (key, victim) = state.withLock { state -> (Int, (any Channel)?) in
            let key = state.next
            state.next += 1
            state.entries[key] = Entry(channel: channel, waitingSince: now)
            guard state.entries.count > limit else { return (key, nil) }
            let oldest = state.entries.filter { $0.key != key && $0.value.waitingSince != nil }
                .min { ($0.value.waitingSince ?? now) < ($1.value.waitingSince ?? now) }
            guard let oldest else { return (key, nil) }
            state.entries[oldest.key]?.waitingSince = nil
            return (key, oldest.value.channel)
        }
        victim?.close(promise: nil)
        return key
    }

    /// Records that connection `key` waits for a request since `since`, or (nil) is answering one.
    func waiting(_ key: Int, since: NIODeadline?) {
        state.withLock { $0.entries[key]?.waitingSince = since }
    }

    /// Forgets connection `key` (closed).
    func closed(_ key: Int) {
        state.withLock { _ = $0.entries.removeValue(forKey: key) }
    }

    /// How many connections are open (for tests).
    var count: Int { state.withLock { $0.entries.count } }
}
