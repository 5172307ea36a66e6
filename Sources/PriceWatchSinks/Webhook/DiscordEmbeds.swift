import FoundationEssentials
import PriceWatchCore

extension DiscordPayload {
    /// Discord's embed limits: 256 characters in a title or a field's name, 1024 in a field's
    /// value, 25 fields an embed, 10 embeds a message, 6000 characters in all its embeds.
    static let maximumTitleLength = 256
    static let maximumFieldValueLength = 1024
    static let maximumFields = 25
    static let maximumEmbeds = 10
    static let maximumEmbedCharacters = 6000
    /// Blurple, the embed's side bar.
    static let embedColour = 0x5865F2

    /// A notification laid out in parts (a digest) as embeds: one with the title and a field
    /// per part, then one per PNG attachment showing it (`attachment://NAME`), at most nine.
    /// With images the request is `multipart/form-data`: `payload_json` and `files[N]`, as
    /// Discord's webhooks take uploads; without, plain JSON. Parts and lines that would pass
    /// Discord's limits are cut, ending in `…`.
    static func content(for notification: OutgoingNotification, message: NotificationMessage,
                        sections: [NotificationSection]) -> WebhookContent {
        var budget = maximumEmbedCharacters
        func take(_ text: String, _ limit: Int) -> String {
            let cut = truncated(text, limit: max(min(limit, budget), 1))
            budget -= cut.utf16.count
            return cut
        }
        var fields: [String] = []
        for section in sections.prefix(maximumFields) where budget > 20 {
            var field = JSONWriter()
            field.string("name", take(section.title, maximumTitleLength))
            field.string("value", take(section.lines.joined(separator: "\n"), maximumFieldValueLength))
            field.boolean("inline", false)
            fields.append(field.result)
        }
        var main = JSONWriter()
        main.string("title", take(message.title, maximumTitleLength))
        main.integer("color", embedColour)
        main.time("timestamp", notification.time)
        main.objects("fields", fields)
        let images = message.attachments.filter { $0.contentType == "image/png" }.prefix(maximumEmbeds - 1)
        var embeds = [main.result]
        for image in images {
            var embed = JSONWriter()
            embed.string("title", take(image.filename, maximumTitleLength))
            var picture = JSONWriter()
            picture.string("url", "attachment://\(image.filename)")
            embed.raw("image", picture.result)
            embeds.append(embed.result)
        }
        var payload = JSONWriter()
        payload.objects("embeds", embeds)
        payload.raw("allowed_mentions", "{\"parse\":[]}")
        guard !images.isEmpty else { return .json(payload.result) }
        var form = MultipartForm()
        form.add(name: "payload_json", contentType: "application/json", bytes: Array(payload.result.utf8))
        for (index, image) in images.enumerated() {
            form.add(name: "files[\(index)]", filename: image.filename, contentType: image.contentType, bytes: image.bytes)
        }
        return WebhookContent(headers: [HTTPHeader("Content-Type", form.contentType)], body: form.body)
    }
}
