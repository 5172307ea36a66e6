import PriceWatchCore

/// The sink types the configuration accepts, and the keys of a `[sinks.NAME]` table.
enum SinkTypes {
    /// Keys every sink accepts, whatever its type: `type`, and the delivery settings
    /// `max_age` (give up retrying after this long, default 24h), `group_wait` (send alerts
    /// queued within this long of the first as one message; default: no grouping) and
    /// `concurrency` (deliveries in flight at once, default 4).
    static let commonKeys = ["type", "max_age", "group_wait", "concurrency"]

    /// The most deliveries a sink may have in flight (`concurrency`).
    static let maximumConcurrency = 64

    /// One row per sink type. `webhook` and `email` arrive as further rows.
    static let all: [TableSchema] = [
        TableSchema(type: "stdout", summary: "prints each alert on standard output", fields: [
            .init("format", .choice(["text", "json"]), "`text` (one line per alert) or `json` (JSON Lines)"),
        ]),
        TableSchema(type: "webhook", summary: "POSTs each alert to a URL, optionally signed (Standard Webhooks)", fields: [
            .init("url", .url, required: true, "the http:// or https:// URL each alert is POSTed to"),
            .init("format", .choice(["json", "slack", "discord", "ntfy"]),
                  "`json` (pricewatch's payload, version 1), `slack`, `discord` or `ntfy` (that service's format)"),
            .init("headers", .stringTable, "extra request headers (`{ Authorization = \"Bearer ...\" }`)"),
            .init("timeout", .duration, "the deadline of one attempt (default \"10s\")"),
            .init("secret", .standardWebhooksSecret, "a `whsec_...` signing secret: requests are signed per Standard Webhooks"),
        ]),
        TableSchema(type: "email", summary: "sends each alert as an email over SMTP", fields: [
            .init("url", .urlWithSchemes(["smtp", "smtps"]), required: true, "the SMTP server: smtp://HOST:PORT (STARTTLS) or smtps://HOST:PORT (implicit TLS)"),
            .init("from", .string, required: true, "the sender address, `alerts@example.com` or `Price Watch <alerts@example.com>`"),
            .init("to", .stringList, required: true, "the recipient addresses"),
            .init("username", .string, "the SMTP AUTH username"),
            .init("password", .secret, "the SMTP AUTH password: { file = ... }, { credential = ... } or { env = ... }"),
            .init("tls", .choice(["starttls", "none"]), "`starttls` (required, the default) or `none` (plain smtp://, no AUTH)"),
            .init("timeout", .duration, "the deadline of one SMTP session (default 30s)"),
            .init("ca_file", .existingFile, "a PEM file of CA certificates to trust instead of the system's"),
            .init("subject", .string, "the subject template of single-alert emails (default: the alert's message)"),
        ], check: { options in
            EmailSettings.parse(options).problems.map { TableSchema.Problem(key: $0.key, index: $0.index, message: $0.message) }
        }),
    ]

    static func schema(for type: String) -> TableSchema? { all.first { $0.type == type } }

    static var typeNames: [String] { all.map(\.type) }

    /// The webhook sink's service format that `type` names (`"ntfy"`, `"Slack"`), for a sink
    /// written as `type = "ntfy"`; `nil` for anything else.
    static func webhookFormat(named type: String) -> String? {
        guard let field = schema(for: "webhook")?.fields.first(where: { $0.key == "format" }),
              case .choice(let formats) = field.kind else { return nil }
        return formats.first { $0 != "json" && $0 == type.lowercased() }
    }
}
