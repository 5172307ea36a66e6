import PriceWatchCore

/// How sinks print a notification that is not alert-shaped (a digest, a report, a kind a
/// later feature adds): one JSON object, or one line of text.
public enum NotificationRendering {
    /// `{"kind":"digest","id":…,"time":…,"title":…,"text":…}`, plus `"html"` and
    /// `"attachments"` (file name, type and size; not the bytes) when present.
    public static func jsonLine(_ notification: OutgoingNotification, _ message: NotificationMessage) -> String {
        var json = JSONWriter()
        json.string("kind", notification.kind.rawValue)
        json.string("id", notification.id)
        json.time("time", notification.time)
        json.string("title", message.title)
        json.string("text", message.text)
        if let html = message.html { json.string("html", html) }
        if !message.attachments.isEmpty {
            json.objects("attachments", message.attachments.map { attachment in
                var item = JSONWriter()
                item.string("filename", attachment.filename)
                item.string("content_type", attachment.contentType)
                item.integer("size", attachment.bytes.count)
                return item.result
            })
        }
        return json.result
    }

    /// `DIGEST 2024-10-02T07:00:00Z [ID] Title: text` with the text's line breaks as spaces.
    public static func textLine(_ notification: OutgoingNotification, _ message: NotificationMessage) -> String {
        let text = message.text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return "\(notification.kind.rawValue.uppercased()) \(notification.time.rfc3339) [\(notification.id)] \(message.title)"
            + (text.isEmpty ? "" : ": \(text)")
    }
}
