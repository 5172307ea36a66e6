/// The sink types the configuration accepts, and the keys of a `[sinks.NAME]` table.
enum SinkTypes {
    /// Keys every sink accepts, whatever its type.
    static let commonKeys = ["type"]

    /// One row per sink type. `webhook` and `email` arrive as further rows.
    static let all: [TableSchema] = [
        TableSchema(type: "stdout", summary: "prints each alert on standard output", fields: [
            .init("format", .choice(["text", "json"]), "`text` (one line per alert) or `json` (JSON Lines)"),
        ]),
    ]

    static func schema(for type: String) -> TableSchema? { all.first { $0.type == type } }

    static var typeNames: [String] { all.map(\.type) }
}
