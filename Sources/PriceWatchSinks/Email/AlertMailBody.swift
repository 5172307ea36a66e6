import PriceWatchCore

/// The text and HTML bodies of an alert email: each alert's message, then its fields.
enum AlertMailBody {
    /// The fields shown for one alert, in order, as (label, value).
    static func fields(_ alert: Alert) -> [(String, String)] {
        var fields: [(String, String)] = [
            ("Rule", alert.rule),
            ("Symbol", alert.symbol),
            ("Price", [alert.placeholderValue(.price), alert.currency].compactMap { $0 }.joined(separator: " ")),
            ("Condition", alert.placeholderValue(.condition) ?? alert.condition),
            ("Time", alert.time.rfc3339),
        ]
        if let base = alert.placeholderValue(.base) { fields.append(("Base", base)) }
        if let change = alert.placeholderValue(.change) { fields.append(("Change", change)) }
        if let provider = alert.provider { fields.append(("Provider", provider)) }
        fields.append(("Alert ID", alert.id))
        return fields
    }

    static func text(_ alerts: [Alert]) -> String {
        var lines: [String] = []
        if alerts.count > 1 { lines += ["\(alerts.count) price alerts fired:", ""] }
        for (index, alert) in alerts.enumerated() {
            if index > 0 { lines.append("") }
            lines.append(alert.message)
            lines.append("")
            for (label, value) in fields(alert) {
                lines.append((label + ":").padding(to: 11) + value)
            }
        }
        lines += ["", "-- ", "Sent by pricewatch. Each alert id stays the same if this message is sent again."]
        return lines.joined(separator: "\n") + "\n"
    }

    static func html(_ alerts: [Alert], title: String) -> String {
        var html = "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>\(escape(title))</title>\n</head>\n<body>\n"
        if alerts.count > 1 { html += "<p>\(alerts.count) price alerts fired:</p>\n" }
        for alert in alerts {
            html += "<h2>\(escape(alert.message))</h2>\n<table>\n"
            for (label, value) in fields(alert) {
                html += "<tr><th align=\"left\">\(escape(label))</th><td>\(escape(value))</td></tr>\n"
            }
            html += "</table>\n"
        }
        html += "<p><small>Sent by pricewatch.</small></p>\n</body>\n</html>\n"
        return html
    }

    /// Escapes text for HTML content and attribute values.
    static func escape(_ text: String) -> String { HTMLText.escaped(text) }
}

extension String {
    /// The string followed by spaces up to `width` characters (never truncated).
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
