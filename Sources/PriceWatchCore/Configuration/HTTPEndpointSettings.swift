/// The daemon's HTTP endpoint (`[http]` in the main file): the dashboard, `/metrics` and
/// `/healthz`. Absent (the default): no endpoint.
///
/// Listening on a loopback address needs no token; listening anywhere else requires `token`
/// (the configuration refuses it otherwise), which every request must then carry as
/// `Authorization: Bearer TOKEN`.
public struct HTTPEndpointSettings: Sendable, Hashable {
    /// The default address: loopback only.
    public static let defaultHost = "127.0.0.1"
    public static let defaultPort = 8490
    /// Connections served at once; more wait in the listen backlog.
    public static let defaultMaximumConnections = 64

    /// The address to listen on (an IPv4 or IPv6 literal, or `localhost`).
    public var host: String
    /// The TCP port; 0 lets the system choose (tests).
    public var port: Int
    /// The bearer token every request must carry; required unless `host` is loopback.
    public var token: Secret?
    /// The most connections served at once.
    public var maximumConnections: Int
    /// The markets page's list (`markets`: indices, futures, currencies, crypto), in the order
    /// written, polled through the main file's provider like a rule's symbols; empty: the page
    /// shows the watched symbols by market.
    public var markets: [String] = []

    public init(host: String = defaultHost, port: Int = defaultPort, token: Secret? = nil,
                maximumConnections: Int = defaultMaximumConnections) {
        self.host = host
        self.port = port
        self.token = token
        self.maximumConnections = maximumConnections
    }

    /// Whether `host` names the loopback interface only.
    public var isLoopback: Bool { Self.isLoopback(host) }

    /// Whether `host` is `localhost`, `::1` or an address in 127.0.0.0/8.
    public static func isLoopback(_ host: String) -> Bool {
        let lowercased = host.lowercased()
        if lowercased == "localhost" || lowercased == "::1" || lowercased == "[::1]" { return true }
        let parts = lowercased.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) else { return false }
        return parts[0] == "127"
    }

    /// `host:port` parsed: `"127.0.0.1:8490"`, `"[::1]:8490"`, `"0.0.0.0:8490"`; `nil` when it
    /// is not an address and port.
    public static func parseListen(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = String(text[..<colon])
        guard let port = Int(text[text.index(after: colon)...]), (0...65_535).contains(port) else { return nil }
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
            guard host.contains(":") else { return nil }
        } else if host.contains(":") {
            return nil
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == ":" || $0 == "-" }) else { return nil }
        return (host, port)
    }
}
