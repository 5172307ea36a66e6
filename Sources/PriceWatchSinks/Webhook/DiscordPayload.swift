import PriceWatchCore

/// The body of a Discord webhook (`format = "discord"`):
/// `{"content":"…","allowed_mentions":{"parse":[]}}`.
///
/// `content` is the alert's rendered message, cut to Discord's limit of 2000 characters
/// (ending in `…` when cut, never inside a character). `allowed_mentions` with nothing to
/// parse keeps an `@everyone` written in a message template from pinging a whole server.
public enum DiscordPayload {
    /// Discord's limit on `content`.
    public static let maximumLength = 2000

    /// The JSON text for `alert`.
    public static func json(for alert: Alert) -> String { json(text: alert.message) }

    /// The body for any text (a group's messages, one per line).
    static func json(text: String) -> String {
        "{\"content\":" + JSONWriter.quoted(truncated(text)) + ",\"allowed_mentions\":{\"parse\":[]}}"
    }

    /// `text` unchanged when it fits, else its longest prefix of whole characters that fits
    /// with a final `…`. Lengths count UTF-16 code units, which is at least the number of code
    /// points, so the result fits whichever of the two Discord counts.
    static func truncated(_ text: String) -> String { truncated(text, limit: maximumLength) }

    /// `text` cut to `limit` UTF-16 code units as ``truncated(_:)`` cuts to Discord's limit.
    static func truncated(_ text: String, limit: Int) -> String {
        guard text.utf16.count > limit else { return text }
        var result = ""
        var length = 0
        for character in text {
            let size = character.utf16.count
            if length + size > limit - 1 { break }
            result.append(character)
            length += size
        }
        return result + "…"
    }

    static func content(for alert: Alert) -> WebhookContent { .json(json(for: alert)) }
}
