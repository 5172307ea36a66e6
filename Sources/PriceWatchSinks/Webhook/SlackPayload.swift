import PriceWatchCore

/// The body of a Slack incoming webhook (`format = "slack"`): `{"text":"…"}` with the alert's
/// rendered message.
///
/// Slack reads `text` as mrkdwn, where `&`, `<` and `>` are control characters (`<!channel>`
/// would notify everyone), so exactly those three are escaped as Slack documents.
public enum SlackPayload {
    /// The JSON text for `alert`.
    public static func json(for alert: Alert) -> String { json(text: alert.message) }

    /// `{"text":…}` for any text (a group's messages, one per line).
    static func json(text: String) -> String {
        var json = JSONWriter()
        json.string("text", escaped(text))
        return json.result
    }

    /// `&` → `&amp;`, `<` → `&lt;`, `>` → `&gt;`.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }

    static func content(for alert: Alert) -> WebhookContent { .json(json(for: alert)) }
}
