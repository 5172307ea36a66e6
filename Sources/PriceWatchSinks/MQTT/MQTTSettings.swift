import PriceWatchCore

/// What a `[sinks.NAME]` table of type `mqtt` configures (``MQTTSink/schema``). Its
/// description shows no password.
public struct MQTTSettings: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    public var host: String
    public var port: Int
    public var username: String?
    /// Never shown: not in the description, errors or logs.
    public var password: String?
    /// TLS to the broker, verified against the system's CA certificates.
    public var tls: Bool
    /// With ``tls``: the PEM file of CA certificates to trust instead of the system's.
    public var caFile: String?
    /// The first level of every topic pricewatch publishes (`pricewatch/alerts/RULE`).
    public var prefix: String
    /// Stable across restarts: the broker keeps the persistent session under it.
    public var clientID: String
    /// Whether Home Assistant discovery configs are published (and its birth message heard).
    public var discovery: Bool
    public var discoveryPrefix: String
    /// How long a delivery waits for the connection and for the broker's PUBACK.
    public var timeout: Duration
    /// The daemon's connection (true): a persistent session under ``clientID``, the last
    /// will, `online`/`offline` and discovery. A command's (`notify-test`): a clean session
    /// under a client id of its own, without any of them, so it neither takes the daemon's
    /// session over nor marks it offline when it exits.
    public var announcesAvailability: Bool

    /// Every default is the schema's (``MQTTSink/schema``), where defaults are declared.
    public init(host: String, port: Int = Self.declaredPort, username: String? = nil, password: String? = nil,
                tls: Bool = Self.declaredBoolean("tls"), prefix: String = Self.declaredString("prefix"), clientID: String,
                discovery: Bool = Self.declaredBoolean("discovery"), discoveryPrefix: String = Self.declaredString("discovery_prefix"),
                timeout: Duration = Self.declaredTimeout, announcesAvailability: Bool = true, caFile: String? = nil) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.tls = tls
        self.prefix = prefix
        self.clientID = clientID
        self.discovery = discovery
        self.discoveryPrefix = discoveryPrefix
        self.timeout = timeout
        self.announcesAvailability = announcesAvailability
        self.caFile = caFile
    }

    /// The schema's default port.
    public static var declaredPort: Int {
        if case .integer(let port)? = MQTTSink.schema.field("port")?.defaultValue { port } else { 0 }
    }

    /// The schema's default timeout.
    public static var declaredTimeout: Duration {
        MQTTSink.schema.field("timeout")?.defaultValue?.durationValue ?? .zero
    }

    /// The schema's default of the string key `key`.
    public static func declaredString(_ key: String) -> String {
        MQTTSink.schema.field(key)?.defaultValue?.stringValue ?? ""
    }

    /// The schema's default of the boolean key `key`.
    public static func declaredBoolean(_ key: String) -> Bool {
        if case .boolean(let value)? = MQTTSink.schema.field(key)?.defaultValue { value } else { false }
    }

    /// The topics these settings publish to.
    public var topics: MQTTTopics { MQTTTopics(prefix: prefix, discoveryPrefix: discoveryPrefix) }

    /// `mqtt://HOST:PORT` or `mqtts://HOST:PORT`: what errors name.
    public var brokerDisplay: String { "\(tls ? "mqtts" : "mqtt")://\(host):\(port)" }

    public var description: String {
        "MQTTSettings(broker: \(brokerDisplay), username: \(username ?? "none"), password: \(password == nil ? "none" : "<secret>"), "
            + "prefix: \(prefix), client_id: \(clientID), discovery: \(discovery ? discoveryPrefix : "off"), timeout: \(timeout))"
    }

    public var debugDescription: String { description }

    /// `text` with the password blanked out: a guard behind every message that could quote
    /// the library or the broker.
    func redacted(_ text: String) -> String {
        guard let password, !password.isEmpty else { return text }
        return text.replacing(password, with: "<secret>")
    }
}
