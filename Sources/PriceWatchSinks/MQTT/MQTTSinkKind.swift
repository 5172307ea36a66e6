#if canImport(Glibc)
import Glibc
#endif
import PriceWatchCore

extension MQTTSink {
    /// `type = "mqtt"`: its keys and its factory.
    public static let kind = SinkKind(schema: schema, make: { settings, context in
        AdapterBuild(MQTTSink(name: settings.name, settings: make(settings, forDaemon: context.forDaemon)))
    })

    /// The keys of a `[sinks.NAME]` table of type `mqtt`, with their defaults.
    public static let schema = AdapterSchema(
        type: "mqtt", summary: "publishes each alert to an MQTT broker, with prices, rule states and Home Assistant discovery", fields: [
            .init("host", .string, required: true, "the broker's host name or address"),
            .init("port", .positiveInteger, default: .integer(1883), "the broker's port (8883 is usual with `tls = true`)"),
            .init("username", .string, "the username the broker authenticates"),
            .init("password", .secret, "the password: { file = ... }, { credential = ... } or { env = ... }"),
            .init("tls", .boolean, default: .boolean(false), "TLS to the broker, verified against the system's CA certificates"),
            .init("ca_file", .existingFile, "with `tls = true`, a PEM file of CA certificates to trust instead of the system's"),
            .init("prefix", .string, default: .string("pricewatch"), "the first level of the topics: PREFIX/alerts/RULE, PREFIX/price/SYMBOL, PREFIX/status"),
            .init("client_id", .string, "the MQTT client id of the persistent session (default `pricewatch-NAME`)"),
            .init("discovery", .boolean, default: .boolean(true), "publish Home Assistant discovery configs for prices and rule states"),
            .init("discovery_prefix", .string, default: .string("homeassistant"), "Home Assistant's discovery prefix"),
            .init("timeout", .duration, default: .seconds(10), "how long a delivery waits for the connection and the broker's acknowledgement"),
        ], check: { options in
            var problems: [AdapterSchema.Problem] = []
            if let port = options.integer("port"), port > 65_535 {
                problems.append(.init(key: "port", index: nil, message: "port must be 1 to 65535, found \(port)"))
            }
            for key in ["prefix", "discovery_prefix"] {
                if let value = options.string(key), value.isEmpty || value.contains(where: { "+#\u{0}".contains($0) }) || value.hasSuffix("/") {
                    problems.append(.init(key: key, index: nil, message: "\(key) must be a topic without `+`, `#` or a trailing `/`, found '\(value)'"))
                }
            }
            return problems
        }, shorthand: shorthand)

    /// `mqtt://[USER[:PASSWORD]@]HOST[:PORT][/PREFIX]` and `mqtts://…` (TLS, port 8883 unless
    /// given), Apprise's forms; the path is the topic prefix (`pricewatch` when left out).
    static let shorthand = URLShorthand(schemes: ["mqtt", "mqtts"], examples: ["mqtt://USER:PASS@HOST:PORT/PREFIX", "mqtts://HOST/PREFIX"]) {
        (url: ShorthandURL, origin: String) throws(ShorthandURL.Problem) -> AdapterOptions in
        let (host, port) = url.hostAndPort
        guard !host.isEmpty else { throw ShorthandURL.Problem("expected a broker host after '://', found none") }
        var options = AdapterOptions(["host": .string(host)])
        if url.scheme == "mqtts" {
            options["tls"] = .boolean(true)
            options["port"] = .integer(port ?? 8883)
        } else if let port {
            options["port"] = .integer(port)
        }
        if let user = url.user {
            let name = user.split(separator: ":", maxSplits: 1).first.map(String.init) ?? user
            guard !name.isEmpty else { throw ShorthandURL.Problem("expected a username before ':', found none") }
            options["username"] = .string(name)
        }
        if let password = url.password, !password.isEmpty {
            options["password"] = .secret(Secret(value: password, origin: origin))
        }
        if !url.path.isEmpty { options["prefix"] = .string(url.path.joined(separator: "/")) }
        return options
    }

    /// The settings of a validated `[sinks.NAME]` table of type `mqtt` (defaults filled in);
    /// not `forDaemon`, those of a command (``MQTTSettings/announcesAvailability``), whose
    /// client id is the configured one with `-cli-PID`.
    public static func make(_ configuration: SinkConfiguration, forDaemon: Bool = true) -> MQTTSettings {
        let options = configuration.options
        var settings = MQTTSettings(host: options.string("host") ?? "", clientID: "pricewatch-\(configuration.name)")
        if let port = options.integer("port") { settings.port = port }
        settings.username = options.string("username")
        settings.password = options.secret("password")?.value
        if let tls = options.boolean("tls") { settings.tls = tls }
        settings.caFile = options.path("ca_file")
        if let prefix = options.string("prefix") { settings.prefix = prefix }
        if let clientID = options.string("client_id") { settings.clientID = clientID }
        if let discovery = options.boolean("discovery") { settings.discovery = discovery }
        if let prefix = options.string("discovery_prefix") { settings.discoveryPrefix = prefix }
        if let timeout = options.duration("timeout") { settings.timeout = .seconds(timeout.seconds) }
        if !forDaemon {
            settings.announcesAvailability = false
            settings.clientID += "-cli-\(getpid())"
        }
        return settings
    }
}
