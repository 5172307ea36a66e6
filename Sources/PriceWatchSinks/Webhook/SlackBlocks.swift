import PriceWatchCore

extension SlackPayload {
    /// Slack's limits: 50 blocks a message, 150 characters in a header, 3000 in a section's text.
    static let maximumBlocks = 50
    static let maximumHeaderLength = 150
    static let maximumSectionLength = 3000

    /// A notification laid out in parts (a digest) as Block Kit: a header with the title, one
    /// section per part (its heading in bold, its lines below), and `text` with the whole plain
    /// text, which Slack shows in notifications and where blocks cannot be shown. Incoming
    /// webhooks cannot upload files, so charts are not sent to Slack.
    static func json(message: NotificationMessage, sections: [NotificationSection]) -> String {
        var blocks: [String] = []
        var header = JSONWriter()
        header.string("type", "header")
        header.raw("text", plainText(DiscordPayload.truncated(message.title, limit: maximumHeaderLength)))
        blocks.append(header.result)
        for section in sections.prefix(maximumBlocks - 1) {
            var block = JSONWriter()
            block.string("type", "section")
            let text = "*\(escaped(section.title))*\n" + section.lines.map(escaped).joined(separator: "\n")
            var mrkdwn = JSONWriter()
            mrkdwn.string("type", "mrkdwn")
            mrkdwn.string("text", DiscordPayload.truncated(text, limit: maximumSectionLength))
            block.raw("text", mrkdwn.result)
            blocks.append(block.result)
        }
        var json = JSONWriter()
        json.string("text", escaped(DiscordPayload.truncated(message.title + "\n" + message.text, limit: 40_000)))
        json.objects("blocks", blocks)
        return json.result
    }

    private static func plainText(_ text: String) -> String {
        var json = JSONWriter()
        json.string("type", "plain_text")
        json.string("text", text)
        return json.result
    }
}
