import Foundation
import PriceWatchCore

/// An ntfy publish request (`format = "ntfy"`, `url` = the topic URL, e.g.
/// `https://ntfy.sh/my-alerts`): the alert's rendered message as a UTF-8 text body, and the
/// headers `Title` (`AAPL above 200`), `Tags` (a trend emoji and the rule id) and
/// `Priority: high`.
///
/// Header values are ASCII; a title with other characters is sent as one RFC 2047 encoded
/// word (`=?UTF-8?B?…?=`), which ntfy decodes. A custom header of the same name (`headers =
/// { Priority = "urgent" }`) replaces the one given here.
public enum NtfyPayload {
    /// ntfy's emoji tag for a price that moved up, and for one that moved down.
    static let upwardTag = "chart_with_upwards_trend"
    static let downwardTag = "chart_with_downwards_trend"

    static func content(for alert: Alert) -> WebhookContent {
        let condition = alert.placeholderValue(.condition) ?? alert.condition
        var tags: [String] = []
        if let rising = isRising(alert) { tags.append(rising ? upwardTag : downwardTag) }
        if isPlainHeaderText(alert.rule) { tags.append(alert.rule) }
        var headers = [
            HTTPHeader("Content-Type", "text/plain; charset=utf-8"),
            HTTPHeader("Title", headerText("\(alert.symbol) \(condition)")),
        ]
        if !tags.isEmpty { headers.append(HTTPHeader("Tags", tags.joined(separator: ","))) }
        headers.append(HTTPHeader("Priority", "high"))
        return WebhookContent(headers: headers, body: Array(alert.message.utf8))
    }

    /// A group: every message on its own line, `Title: 3 alerts: AAPL, MSFT` (symbols in order,
    /// each once), a trend tag when every alert moved the same way, `Priority: high`.
    static func content(for alerts: [Alert]) -> WebhookContent {
        var symbols: [String] = []
        for alert in alerts where !symbols.contains(alert.symbol) { symbols.append(alert.symbol) }
        let trends = Set(alerts.map(isRising))
        var headers = [
            HTTPHeader("Content-Type", "text/plain; charset=utf-8"),
            HTTPHeader("Title", headerText("\(alerts.count) alerts: " + symbols.joined(separator: ", "))),
        ]
        if trends.count == 1, let rising = trends.first ?? nil {
            headers.append(HTTPHeader("Tags", rising ? upwardTag : downwardTag))
        }
        headers.append(HTTPHeader("Priority", "high"))
        return WebhookContent(headers: headers, body: Array(alerts.map(\.message).joined(separator: "\n").utf8))
    }

    /// A notification that is not an alert: its text as the body (its title when it has no
    /// text), `Title` its title, `Tags` its kind. Attachments are not sent (ntfy takes one
    /// file per message, as a different request).
    static func content(for notification: OutgoingNotification, message: NotificationMessage) -> WebhookContent {
        if let image = message.attachments.first(where: { $0.contentType.hasPrefix("image/") }) {
            return attachment(image, notification: notification, message: message)
        }
        var headers = [
            HTTPHeader("Content-Type", "text/plain; charset=utf-8"),
            HTTPHeader("Title", headerText(message.title)),
        ]
        if isPlainHeaderText(notification.kind.rawValue) { headers.append(HTTPHeader("Tags", notification.kind.rawValue)) }
        return WebhookContent(headers: headers, body: Array((message.text.isEmpty ? message.title : message.text).utf8))
    }

    /// The most bytes of text sent with an attachment (ntfy's default message limit is 4096).
    static let maximumAttachmentMessageBytes = 3800

    /// A notification with an image (a digest's first chart): the image as the body of a `PUT`,
    /// as ntfy takes attachments, with `Filename` and `Title` headers and the text as the
    /// `message` query parameter (headers cannot carry line breaks), cut to fit. Only the
    /// first image travels: ntfy takes one file a message.
    static func attachment(_ image: NotificationAttachment, notification: OutgoingNotification,
                           message: NotificationMessage) -> WebhookContent {
        var headers = [
            HTTPHeader("Content-Type", image.contentType),
            HTTPHeader("Filename", isPlainHeaderText(image.filename) ? image.filename : "chart.png"),
            HTTPHeader("Title", headerText(message.title)),
        ]
        if isPlainHeaderText(notification.kind.rawValue) { headers.append(HTTPHeader("Tags", notification.kind.rawValue)) }
        var text = message.text.isEmpty ? message.title : message.text
        while text.utf8.count > maximumAttachmentMessageBytes { text = String(text.dropLast(max(1, (text.utf8.count - maximumAttachmentMessageBytes) / 4))) }
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let encoded = text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
        return WebhookContent(headers: headers, body: image.bytes, method: .put, query: [("message", encoded)])
    }

    /// Whether the price moved up (`true`), down (`false`), or it cannot be told (`nil`):
    /// from a crossing's direction, a percent rule's change, or the condition's kind.
    static func isRising(_ alert: Alert) -> Bool? {
        if let direction = alert.direction { return direction == "up" }
        if let change = alert.change { return change.isPositive }
        if alert.condition.hasPrefix("above") { return true }
        if alert.condition.hasPrefix("below") { return false }
        return nil
    }

    /// `text` itself when it is printable ASCII, else one RFC 2047 encoded word.
    static func headerText(_ text: String) -> String {
        if isPlainHeaderText(text) { return text }
        return "=?UTF-8?B?" + Data(text.utf8).base64EncodedString() + "?="
    }

    static func isPlainHeaderText(_ text: String) -> Bool {
        text.utf8.allSatisfy { (0x20...0x7E).contains($0) }
    }
}
