import PriceWatchCore
import FoundationEssentials

/// The two ways alerts are printed: JSON Lines (`docs/commands.md`) and one human-readable line.
public enum AlertRendering {
    /// One JSON object: `id`, `rule`, `symbol`, `time`, `price`, `condition`; for percent rules
    /// `base` and `change` (`null` when the change is out of range); then `currency`, `direction` (crosses) and `provider` when known,
    /// and the rendered `message`.
    public static func jsonLine(_ alert: Alert) -> String {
        var json = JSONWriter()
        writeFields(of: alert, to: &json)
        return json.result
    }

    /// Writes the fields of ``jsonLine(_:)`` to `json`, for objects that add more fields.
    public static func writeFields(of alert: Alert, to json: inout JSONWriter) {
        json.string("id", alert.id)
        json.string("rule", alert.rule)
        json.string("symbol", alert.symbol)
        json.time("time", alert.time)
        json.number("price", alert.price)
        json.string("condition", alert.condition)
        if alert.base != nil || alert.change != nil {
            json.number("base", alert.base)
            json.number("change", alert.change)
        }
        if let currency = alert.currency { json.string("currency", currency) }
        if let direction = alert.direction { json.string("direction", direction) }
        if let provider = alert.provider { json.string("provider", provider) }
        if let series = alert.series {
            json.string("timeframe", series.timeframe)
            json.string("of", series.of)
            json.number("of_value", series.ofValue)
            json.string("level", series.level)
            json.number("level_value", series.levelValue)
        }
        json.string("message", alert.message)
    }

    /// `2024-10-02T14:31:00Z aapl-200 AAPL 225.70 USD above 200` and, for percent rules,
    /// `(base 226.21, change -0.23%)`; for crossings the direction.
    public static func textLine(_ alert: Alert, zone: TimeZone? = nil) -> String {
        var parts = [LocalTimeText.stamp(alert.time, zone: zone), alert.rule, alert.symbol, alert.price.formatted(minimumFractionDigits: 2)]
        if let currency = alert.currency { parts.append(currency) }
        parts.append(alert.condition)
        if let direction = alert.direction { parts.append("(\(direction))") }
        if let series = alert.series { parts.append("(\(series.text(verb: alert.seriesVerb)))") }
        if let base = alert.base, let change = alert.change {
            let sign = change.isPositive ? "+" : ""
            parts.append("(base \(base.formatted(minimumFractionDigits: 2)), change \(sign)\(change.formatted(minimumFractionDigits: 2))%)")
        } else if let base = alert.base {
            // A percent rule whose change does not fit an exact decimal (see percentChange).
            parts.append("(base \(base.formatted(minimumFractionDigits: 2)), change out of range)")
        }
        return ControlCharacters.escaped(parts.joined(separator: " "))
    }
}
