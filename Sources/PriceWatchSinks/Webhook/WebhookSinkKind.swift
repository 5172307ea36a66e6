import PriceWatchCore

extension WebhookSink {
    /// `type = "webhook"`: its keys and its factory. Settings the schema cannot judge (header
    /// names, line breaks in values) become diagnostics that show no header value.
    public static let kind = SinkKind(
        schema: schema,
        make: { settings, context in
            do {
                return AdapterBuild(try make(settings, transport: context.http, wallClock: context.wallClock))
            } catch {
                return .error("\(error)", table: "sinks.\(settings.name)", context: context)
            }
        })

    /// The keys of a `[sinks.NAME]` table of type `webhook`, with their defaults.
    public static let schema = AdapterSchema(
        type: "webhook", summary: "POSTs each alert to a URL, optionally signed (Standard Webhooks)", fields: [
            .init("url", .url, required: true, "the http:// or https:// URL each alert is POSTed to"),
            .init("format", .choice(["json", "slack", "discord", "ntfy"]),
                  "`json` (pricewatch's payload, version 1), `slack`, `discord` or `ntfy` (that service's format)"),
            .init("headers", .stringTable, "extra request headers (`{ Authorization = \"Bearer ...\" }`)"),
            .init("timeout", .duration, default: .seconds(10), "the deadline of one attempt"),
            .init("secret", .standardWebhooksSecret, "a `whsec_...` signing secret: requests are signed per Standard Webhooks"),
        ], shorthand: shorthand)

    /// Apprise's `json://HOST/PATH` (http) and `jsons://` (https): pricewatch's JSON payload
    /// to that address; `ntfy://TOPIC` (ntfy.sh), `ntfy://HOST/TOPIC` (http) and
    /// `ntfys://HOST/TOPIC` (https): the ntfy format to that topic.
    static let shorthand = URLShorthand(schemes: ["json", "jsons", "ntfy", "ntfys"],
                                        examples: ["json://HOST/PATH", "jsons://HOST/PATH", "ntfy://TOPIC", "ntfys://HOST/TOPIC"]) {
        (url: ShorthandURL, _: String) throws(ShorthandURL.Problem) -> AdapterOptions in
        guard !url.host.isEmpty else { throw ShorthandURL.Problem("expected a host after '://', found none") }
        let secure = url.scheme.hasSuffix("s")
        let path = url.path.map { ServiceText.percentEncoded($0) }.joined(separator: "/")
        if url.scheme.hasPrefix("ntfy") {
            guard url.user == nil else {
                throw ShorthandURL.Problem("credentials in ntfy URLs are not supported: write type = \"webhook\", format = \"ntfy\" and headers")
            }
            guard url.path.count <= 1 else { throw ShorthandURL.Problem("expected one topic, found \(url.path.count): write one sink per topic") }
            // `ntfy://TOPIC` is a topic on the public server.
            let address = url.path.isEmpty ? "https://ntfy.sh/" + ServiceText.percentEncoded(url.host)
                : (secure ? "https://" : "http://") + url.authority + "/" + path
            return AdapterOptions(["url": .string(address), "format": .string(WebhookFormat.ntfy.rawValue)])
        }
        let address = (secure ? "https://" : "http://") + url.authority + (path.isEmpty ? "" : "/" + path)
        return AdapterOptions(["url": .string(address), "format": .string(WebhookFormat.json.rawValue)])
    }

    /// The sink of a validated `[sinks.NAME]` table of type `webhook`.
    public static func make(_ settings: SinkConfiguration, transport: any HTTPTransport,
                            wallClock: @escaping @Sendable () -> Timestamp) throws(WebhookConfigurationError) -> WebhookSink {
        let options = settings.options
        var webhook = WebhookSink.Settings(url: options.string("url") ?? "")
        webhook.format = options.string("format").flatMap(WebhookFormat.init(rawValue:)) ?? .json
        webhook.headers = (options.stringTable("headers") ?? []).map { HTTPHeader($0.key, $0.value) }
        if let timeout = options.duration("timeout") { webhook.timeout = .seconds(timeout.seconds) }
        webhook.secret = options.secret("secret")?.value
        return try WebhookSink(name: settings.name, settings: webhook, transport: transport, wallClock: wallClock)
    }
}
