/// Removes every string that may be secret from a message before it leaves the sink: the
/// signing secret, every custom header value (any of them may be a token), and the URL's
/// path, query and user info.
struct WebhookRedactor: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// Longest first, so that a secret containing another is removed whole.
    let secrets: [String]

    /// Strings shorter than this are not searched for: they cannot be useful secrets, and
    /// replacing them would garble every message that happens to contain them.
    static let shortest = 4

    init(_ candidates: [String]) {
        secrets = Array(Set(candidates.filter { $0.count >= Self.shortest })).sorted { $0.count > $1.count }
    }

    func redact(_ text: String) -> String {
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacing(secret, with: "<redacted>")
        }
        return result
    }

    var description: String { "WebhookRedactor(\(secrets.count) strings)" }
    var debugDescription: String { description }
}
