import PriceWatchCore

/// `pricewatch alerts --format csv`: the alert log as RFC 4180 CSV, one row per delivery (an
/// alert without deliveries has one row with the delivery columns empty).
///
/// Columns: `alert_id,time,rule,symbol,provider,price,currency,condition,sink,identity,status,
/// attempts,queued_at,next_attempt_at,delivered_at,last_error`. Times are RFC 3339 UTC,
/// prices exact decimals; a field with a comma, a quote or a line break is quoted, with
/// quotes doubled.
public enum AlertLogCSV {
    public static let header = ["alert_id", "time", "rule", "symbol", "provider", "price", "currency", "condition",
                                "sink", "identity", "status", "attempts", "queued_at", "next_attempt_at",
                                "delivered_at", "last_error"].joined(separator: ",")

    /// The rows of one alert; `identities` maps a sink name to `kind/name`.
    public static func rows(_ record: AlertRecord, identities: [String: String]) -> [String] {
        let alert = record.alert
        let fields = [alert.id, alert.time.rfc3339, alert.rule, alert.symbol, alert.provider ?? "", alert.price.description,
                      alert.currency ?? "", alert.condition]
        guard !record.deliveries.isEmpty else { return [line(fields + Array(repeating: "", count: 8))] }
        return record.deliveries.map { delivery in
            line(fields + [
                delivery.sink, identities[delivery.sink] ?? "", delivery.status.rawValue, String(delivery.attempts),
                delivery.createdAt.rfc3339, delivery.status == .pending ? delivery.nextAttemptAt?.rfc3339 ?? "" : "",
                delivery.deliveredAt?.rfc3339 ?? "", delivery.lastError ?? "",
            ])
        }
    }

    /// One CSV line of `fields`, quoted where RFC 4180 needs it.
    public static func line(_ fields: [String]) -> String {
        fields.map { field in
            guard field.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return field }
            var quoted = "\""
            for character in field {
                if character == "\"" { quoted += "\"\"" } else { quoted.append(character) }
            }
            return quoted + "\""
        }.joined(separator: ",")
    }
}
