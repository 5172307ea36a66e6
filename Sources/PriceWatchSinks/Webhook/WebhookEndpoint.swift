/// The URL a webhook sink posts to, split so that messages can name the receiver without
/// revealing it: Slack's and Discord's webhook URLs carry their token in the path, others a
/// key in the query or `user:password@`. Only ``display`` (scheme, host and port) is ever
/// printed.
public struct WebhookEndpoint: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The URL as configured; sent, never printed.
    public let url: String
    /// `https://hooks.slack.com`: the scheme and the host (with its port, when written).
    public let display: String
    /// The parts that may be secret: the whole URL, its user info, path and query, and each
    /// of their pieces (user and password, path segments, query parameters and values).
    let sensitiveParts: [String]

    /// Why a URL cannot be a webhook endpoint. Messages never contain the URL.
    public enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        case unsupportedScheme
        case missingHost
        case forbiddenCharacter

        public var description: String {
            switch self {
            case .unsupportedScheme: "expected an http:// or https:// URL"
            case .missingHost: "the URL has no host"
            case .forbiddenCharacter: "the URL contains a space or a control character"
            }
        }
    }

    public init(_ url: String) throws(Problem) {
        guard !url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            throw .forbiddenCharacter
        }
        let lowercased = url.lowercased()
        let scheme: String
        if lowercased.hasPrefix("https://") {
            scheme = "https"
        } else if lowercased.hasPrefix("http://") {
            scheme = "http"
        } else {
            throw .unsupportedScheme
        }
        let afterScheme = url.dropFirst(scheme.count + 3)
        let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterScheme.endIndex
        let authority = afterScheme[..<authorityEnd]
        // Whole parts and their pieces: a receiver may echo one path segment or query value.
        var sensitive = [url, String(afterScheme[authorityEnd...])]
        var hostAndPort = authority
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            sensitive.append(String(userInfo))
            sensitive += userInfo.split(separator: ":").map(String.init)
            hostAndPort = authority[authority.index(after: at)...]
        }
        let rest = afterScheme[authorityEnd...]
        let path = rest.prefix { $0 != "?" && $0 != "#" }
        sensitive.append(String(path))
        sensitive += path.split(separator: "/").map(String.init)
        if let query = rest.firstIndex(of: "?") {
            let text = rest[rest.index(after: query)...]
            sensitive.append(String(text))
            for parameter in text.split(whereSeparator: { $0 == "&" || $0 == "#" }) {
                sensitive.append(String(parameter))
                if let equals = parameter.firstIndex(of: "=") { sensitive.append(String(parameter[parameter.index(after: equals)...])) }
            }
        }
        let host = hostAndPort.hasPrefix("[") ? hostAndPort : (hostAndPort.split(separator: ":").first ?? "")
        guard !host.isEmpty else { throw .missingHost }
        self.url = url
        self.display = scheme + "://" + hostAndPort.lowercased()
        self.sensitiveParts = sensitive.filter { !$0.isEmpty && $0 != "/" }
    }

    public var description: String { display }
    public var debugDescription: String { display }
}
