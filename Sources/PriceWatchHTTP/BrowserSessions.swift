import PriceWatchCore
import Synchronization

/// The sessions of browsers that logged in with the endpoint's token (`POST /login`): a random
/// id each, kept in memory only (a restart logs every browser out), valid for ``lifetime``.
/// The id is what the `pricewatch_session` cookie carries: never the token itself.
final class BrowserSessions: Sendable {
    /// How long a login lasts.
    static let lifetimeSeconds: Int64 = 12 * 3600
    /// The most sessions kept; a new login past it drops the oldest.
    static let maximumSessions = 64
    /// The cookie's name.
    static let cookieName = "pricewatch_session"

    private let sessions = Mutex<[(id: String, expiresAt: Int64)]>([])

    /// A new session id (64 hex digits from the system's random source), valid from `now`.
    func create(now: Timestamp) -> String {
        var generator = SystemRandomNumberGenerator()
        var id = ""
        for _ in 0..<4 {
            let word = generator.next() as UInt64
            let hex = String(word, radix: 16)
            id += String(repeating: "0", count: 16 - hex.count) + hex
        }
        sessions.withLock { list in
            list.removeAll { $0.expiresAt <= now.milliseconds }
            if list.count >= Self.maximumSessions { list.removeFirst(list.count - Self.maximumSessions + 1) }
            list.append((id, now.milliseconds + Self.lifetimeSeconds * 1000))
        }
        return id
    }

    /// Whether `id` is a session in force at `now`, compared in constant time.
    func isValid(_ id: String, now: Timestamp) -> Bool {
        let given = Array(id.utf8)
        return sessions.withLock { list in
            var found = false
            for session in list where session.expiresAt > now.milliseconds {
                if ConstantTime.equal(Array(session.id.utf8), given) { found = true }
            }
            return found
        }
    }

    /// The session id in a `Cookie` header, if it names one.
    static func id(inCookieHeader header: String) -> String? {
        for part in header.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces) == cookieName else { continue }
            return pair[1].trimmingCharacters(in: .whitespaces)
        }
        return nil
    }
}
