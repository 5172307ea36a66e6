import PriceWatchCore

/// The defaults of every provider and sink type's optional keys, as a Markdown table, made
/// from the schemas in the adapter catalog (the only place a default is declared). The
/// configuration reference (`docs/configuration.md`) carries this table verbatim, and a test
/// keeps the two equal.
public enum AdapterDefaultsTable {
    /// One row per optional key with a default: type, key, default, what it is.
    public static func markdown(_ schemas: AdapterSchemas = AdapterCatalog.schemas) -> String {
        var lines = ["| table | key | default | meaning |", "|---|---|---|---|"]
        for (kind, schema) in schemas.providers.map({ ("providers", $0) }) + schemas.sinks.map({ ("sinks", $0) }) {
            for field in schema.fields {
                guard let value = field.defaultValue else { continue }
                lines.append("| `[\(kind).NAME]` `type = \"\(schema.type)\"` | `\(field.key)` | `\(value.documentation)` | \(field.summary) |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
