/// An Apprise-style URL (`tgram://TOKEN/CHAT`, `pover://USER@TOKEN/DEVICE`,
/// `matrixs://TOKEN@HOST/!room:HOST`) split into its parts, percent-decoded.
///
/// Looser than a web URL on purpose: Apprise puts secrets where a host would be (a Telegram
/// token contains `:`), and a Matrix room alias starts with `#`, which is kept as part of the
/// path rather than read as a fragment. Its description shows the scheme only: every other
/// part may be a secret.
public struct ShorthandURL: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The scheme, lowercased, without `://`.
    public let scheme: String
    /// Everything between `://` and the first `/` or `?`, as written (not decoded).
    public let authority: String
    /// What precedes the last `@` of the authority, decoded; nil without `@`.
    public let user: String?
    /// The part of ``user`` after its first `:`, decoded; nil without one.
    public let password: String?
    /// The authority after its last `@` (all of it without `@`), decoded: `host`, `host:port`.
    public let host: String
    /// The path's non-empty segments, decoded.
    public let path: [String]
    /// The query's `name=value` pairs in order, decoded (`+` as a space).
    public let query: [(name: String, value: String)]

    /// Why a URL cannot stand for a sink. The message never contains the URL.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        public let message: String
        public init(_ message: String) { self.message = message }
        public var description: String { message }
    }

    public init(_ text: String) throws(Problem) {
        guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            throw Problem("expected a URL without spaces or control characters, found one with them")
        }
        guard let separator = text.range(of: "://") else {
            throw Problem("expected a URL such as tgram://TOKEN/CHAT, found text without '://'")
        }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard !scheme.isEmpty, scheme.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == "." })
        else { throw Problem("expected a URL scheme of letters and digits before '://'") }
        let rest = text[separator.upperBound...]
        let queryStart = rest.firstIndex(of: "?")
        let beforeQuery = rest[..<(queryStart ?? rest.endIndex)]
        let authorityEnd = beforeQuery.firstIndex(of: "/") ?? beforeQuery.endIndex
        let authority = beforeQuery[..<authorityEnd]
        self.scheme = scheme
        self.authority = String(authority)
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            if let colon = userInfo.firstIndex(of: ":") {
                user = PercentEncoding.decoded(userInfo[..<colon])
                password = PercentEncoding.decoded(userInfo[userInfo.index(after: colon)...])
            } else {
                user = PercentEncoding.decoded(userInfo)
                password = nil
            }
            host = PercentEncoding.decoded(authority[authority.index(after: at)...])
        } else {
            user = nil
            password = nil
            host = PercentEncoding.decoded(authority)
        }
        path = beforeQuery[authorityEnd...].split(separator: "/").map { PercentEncoding.decoded($0) }.filter { !$0.isEmpty }
        if let queryStart {
            query = rest[rest.index(after: queryStart)...].split(separator: "&").map { pair in
                let spaced = pair.replacing("+", with: " ")
                guard let equals = spaced.firstIndex(of: "=") else { return (PercentEncoding.decoded(spaced[...]), "") }
                return (PercentEncoding.decoded(spaced[..<equals]), PercentEncoding.decoded(spaced[spaced.index(after: equals)...]))
            }
        } else {
            query = []
        }
    }

    /// The last value of query parameter `name` (names compare ignoring case).
    public func queryValue(_ name: String) -> String? {
        query.last { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// A yes/no query parameter (`yes`, `true`, `1`, `on`; `no`, `false`, `0`, `off`); nil when
    /// absent. Anything else is a problem naming the parameter.
    public func queryFlag(_ name: String) throws(Problem) -> Bool? {
        guard let value = queryValue(name) else { return nil }
        switch value.lowercased() {
        case "yes", "true", "1", "on", "": return true
        case "no", "false", "0", "off": return false
        default: throw Problem("query parameter '\(name)': expected yes or no, found \(value.count) other characters")
        }
    }

    /// `host` split at its port: `("example.com", 8080)`; an IPv6 literal keeps its brackets.
    public var hostAndPort: (host: String, port: Int?) {
        if host.hasPrefix("["), let close = host.lastIndex(of: "]") {
            let after = host[host.index(after: close)...]
            return (String(host[...close]), after.hasPrefix(":") ? Int(after.dropFirst()) : nil)
        }
        guard let colon = host.lastIndex(of: ":") else { return (host, nil) }
        return (String(host[..<colon]), Int(host[host.index(after: colon)...]))
    }

    public var description: String { "\(scheme)://…" }
    public var debugDescription: String { description }
}
