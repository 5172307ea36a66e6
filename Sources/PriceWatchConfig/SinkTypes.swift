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
    ]

    static func schema(for type: String) -> TableSchema? { all.first { $0.type == type } }

    static var typeNames: [String] { all.map(\.type) }
}
