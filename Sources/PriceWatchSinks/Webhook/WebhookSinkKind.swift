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
        ])

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
