/// The sink types the configuration accepts, and the keys of a `[sinks.NAME]` table.
enum SinkTypes {
    /// Keys every sink accepts, whatever its type.
    static let commonKeys = ["type"]

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
    ]

    static func schema(for type: String) -> TableSchema? { all.first { $0.type == type } }

    static var typeNames: [String] { all.map(\.type) }
}
