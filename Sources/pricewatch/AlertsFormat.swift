import ArgumentParser
import PriceWatchCore

/// `pricewatch alerts --format text|json|csv`.
enum AlertsFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, csv

    /// The text form's line when no alert matches: `no alerts of rule 'aapl-200' for AAPL with
    /// a dead delivery since 2024-10-02T14:31:00Z`; without `--since`, `... in the alert log`.
    static func nothingMatched(since: Timestamp?, rule: String?, symbol: String?, status: Delivery.Status?) -> String {
        var text = "no alerts"
        if let rule { text += " of rule '\(rule)'" }
        if let symbol { text += " for \(symbol)" }
        if let status { text += " with a \(status.rawValue) delivery" }
        text += since.map { " since \($0.rfc3339)" } ?? " in the alert log"
        return text
    }
}

extension Delivery.Status: ExpressibleByArgument, CaseIterable {
    public static var allCases: [Delivery.Status] { [.pending, .delivered, .dead, .silenced] }
}
