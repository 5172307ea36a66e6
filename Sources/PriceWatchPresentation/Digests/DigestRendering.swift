import PriceWatchCore

import Foundation

/// A ``Digest`` as a title, plain text and HTML (inline styles only, no scripts, no external
/// resources: what mail clients show). Times are in the digest's time zone.
struct DigestRendering {
    let digest: Digest
    private let calendar: Calendar

    init(digest: Digest) {
        self.digest = digest
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: digest.timeZone) ?? TimeZone(secondsFromGMT: 0) ?? .current
        self.calendar = calendar
    }

    /// `pricewatch digest daily: 2024-10-01 18:00 to 2024-10-02 18:00`: the digest named once
    /// (its window says its period).
    var title: String {
        "pricewatch digest \(digest.name): \(local(digest.window.lowerBound)) to \(local(digest.window.upperBound))"
    }

    var text: String {
        var lines = [title, "Times in \(digest.timeZone).", ""]
        lines.append("Top gainers")
        lines += digest.movers.gainers.isEmpty ? ["  none"] : digest.movers.gainers.map(moverLine)
        lines.append("Top losers")
        lines += digest.movers.losers.isEmpty ? ["  none"] : digest.movers.losers.map(moverLine)
        if !digest.movers.withoutData.isEmpty {
            lines.append("No prices in the period: \(digest.movers.withoutData.joined(separator: ", "))")
        }
        lines.append("")
        lines.append("Alerts (\(digest.alerts.count))")
        lines += digest.alerts.isEmpty ? ["  none"] : digest.alerts.map { "  " + alertLine($0) }
        if !digest.markets.isEmpty {
            lines.append("")
            lines.append("Markets")
            lines += digest.markets.map { "  \($0.market.rawValue) \(marketLine($0.status))" }
        }
        for section in digest.sections {
            lines.append("")
            lines.append(section.title)
            lines += section.lines.map { "  " + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The text's parts for chat formats: the movers, the alerts, the markets and the added
    /// sections, each a heading and its lines (`none` for an empty list).
    var sections: [NotificationSection] {
        func lines(_ list: [String]) -> [String] { list.isEmpty ? ["none"] : list }
        var sections = [
            NotificationSection(title: "Top gainers", lines: lines(digest.movers.gainers.map(chatMoverLine))),
            NotificationSection(title: "Top losers", lines: lines(digest.movers.losers.map(chatMoverLine))),
        ]
        if !digest.movers.withoutData.isEmpty {
            sections.append(NotificationSection(title: "No prices in the period", lines: [digest.movers.withoutData.joined(separator: ", ")]))
        }
        sections.append(NotificationSection(title: "Alerts (\(digest.alerts.count))", lines: lines(digest.alerts.map(alertLine))))
        if !digest.markets.isEmpty {
            sections.append(NotificationSection(title: "Markets", lines: digest.markets.map { "\($0.market.rawValue) \(marketLine($0.status))" }))
        }
        sections += digest.sections.map { NotificationSection(title: $0.title, lines: lines($0.lines)) }
        return sections
    }

    /// `AAPL +10.00% (100.00 -> 110.00)`.
    func chatMoverLine(_ mover: TopMovers.Mover) -> String {
        "\(mover.symbol) \(percent(mover.percentChange)) (\(price(mover.from)) -> \(price(mover.to)))"
    }

    var html: String {
        let cell = "padding:4px 8px;border-bottom:1px solid #dddddd;font-family:DejaVu Sans,Arial,sans-serif;font-size:14px"
        let heading = "font-family:DejaVu Sans,Arial,sans-serif;font-size:16px;margin:16px 0 4px 0;color:#222222"
        func table(_ rows: [[String]]) -> String {
            "<table style=\"border-collapse:collapse\">"
                + rows.map { "<tr>" + $0.map { "<td style=\"\(cell)\">\(escape($0))</td>" }.joined() + "</tr>" }.joined()
                + "</table>"
        }
        func movers(_ list: [TopMovers.Mover]) -> String {
            list.isEmpty ? "<p style=\"\(cell)\">none</p>"
                : table(list.map { [$0.symbol, percent($0.percentChange), "\(price($0.from)) → \(price($0.to))"] })
        }
        var body = "<h1 style=\"font-family:DejaVu Sans,Arial,sans-serif;font-size:18px;color:#222222\">\(escape(title))</h1>"
        body += "<p style=\"\(cell);border:none;color:#555555\">Times in \(escape(digest.timeZone)).</p>"
        body += "<h2 style=\"\(heading)\">Top gainers</h2>" + movers(digest.movers.gainers)
        body += "<h2 style=\"\(heading)\">Top losers</h2>" + movers(digest.movers.losers)
        if !digest.charts.isEmpty {
            body += "<h2 style=\"\(heading)\">Charts</h2>"
            for chart in digest.charts {
                body += "<p style=\"margin:8px 0\"><img src=\"\(chart.attachment.inlineReference)\" width=\"600\" "
                    + "alt=\"\(escape(chart.symbol)) chart\" style=\"display:block;max-width:100%;height:auto;border:0\"></p>"
            }
        }
        body += "<h2 style=\"\(heading)\">Alerts (\(digest.alerts.count))</h2>"
        body += digest.alerts.isEmpty ? "<p style=\"\(cell)\">none</p>"
            : table(digest.alerts.map { [local($0.alert.time), $0.alert.rule, $0.alert.message, deliveryState($0.deliveries)] })
        if !digest.markets.isEmpty {
            body += "<h2 style=\"\(heading)\">Markets</h2>" + table(digest.markets.map { [$0.market.rawValue, marketLine($0.status)] })
        }
        for section in digest.sections {
            body += "<h2 style=\"\(heading)\">\(escape(section.title))</h2>" + table(section.lines.map { [$0] })
        }
        return "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>\(escape(title))</title></head>"
            + "<body style=\"margin:0;padding:16px;background:#ffffff;color:#222222\">\(body)</body></html>\n"
    }

    func moverLine(_ mover: TopMovers.Mover) -> String {
        let symbol = mover.symbol.padding(toLength: max(mover.symbol.count, 8), withPad: " ", startingAt: 0)
        return "  \(symbol) \(percent(mover.percentChange))  \(price(mover.from)) -> \(price(mover.to))"
    }

    func alertLine(_ record: AlertRecord) -> String {
        "\(local(record.alert.time))  \(record.alert.rule)  \(record.alert.message)  [\(deliveryState(record.deliveries))]"
    }

    /// `delivered to ops; pending on mail (3 attempts)`.
    func deliveryState(_ deliveries: [Delivery]) -> String {
        guard !deliveries.isEmpty else { return "no sinks" }
        return deliveries.sorted { $0.sink < $1.sink }.map { delivery in
            switch delivery.status {
            case .delivered: "delivered to \(delivery.sink)"
            case .pending: "pending on \(delivery.sink) (\(delivery.attempts) attempts)"
            case .dead: "failed on \(delivery.sink)"
            case .silenced: "silenced for \(delivery.sink)"
            }
        }.joined(separator: "; ")
    }

    func marketLine(_ status: MarketStatus) -> String {
        switch status {
        case .open(let until): until.milliseconds == .max ? "open" : "open until \(local(until))"
        case .closed(let until): until.map { "closed until \(local($0))" } ?? "closed"
        }
    }

    /// `+12.34%`, `-0.50%`: as `watch`, `quote` and the dashboard write a change.
    func percent(_ value: ExactDecimal) -> String {
        let rounded = value.rounded(toFractionDigits: 2).formatted(minimumFractionDigits: 2)
        return (value.isPositive ? "+" : "") + rounded + "%"
    }

    /// `110.00`, `0.00001234`: at least two decimals, as `watch` and `quote` write a price.
    func price(_ value: ExactDecimal) -> String { value.formatted(minimumFractionDigits: 2) }

    /// `2024-11-04 08:00` in the digest's time zone.
    func local(_ instant: Timestamp) -> String {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute],
                                            from: Date(timeIntervalSince1970: Double(instant.milliseconds) / 1000))
        func two(_ value: Int?) -> String { let text = String(value ?? 0); return text.count < 2 ? "0" + text : text }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute))"
    }

    func escape(_ text: String) -> String { HTMLText.escaped(text) }
}
