/// The notification of a headline (kind `news`): what a news rule's sinks receive when a new
/// story about one of its symbols appears in the feed.
public struct NewsNotification: NotificationContent {
    public static let kind = NotificationKind.news

    public var headline: NewsHeadline
    /// The rule that asked for it.
    public var rule: String
    /// The feed the headline came from (`yahoo`).
    public var feed: String

    public init(headline: NewsHeadline, rule: String, feed: String) {
        self.headline = headline
        self.rule = rule
        self.feed = feed
    }

    /// The notification's stable id, from the rule, the symbol and the story's guid: a story is
    /// one notification per rule, however often the feed lists it.
    public var notificationID: String {
        NotificationID.make(kind: Self.kind, parts: [rule, headline.symbol, headline.guid])
    }

    public func message() -> NotificationMessage {
        let source = headline.sourceName.map { "\($0), " } ?? ""
        let text = "\(headline.title)\n\(source)\(headline.publishedAt.rfc3339) (\(feed) feed, rule \(rule))\n\(headline.link)"
        var json = JSONWriter()
        json.string("symbol", headline.symbol)
        json.string("title", headline.title)
        json.string("link", headline.link)
        json.string("guid", headline.guid)
        json.string("source", headline.sourceName)
        json.time("published_at", headline.publishedAt)
        json.string("feed", feed)
        json.string("rule", rule)
        return NotificationMessage(title: "\(headline.symbol): \(headline.title)", text: text,
                                   sections: [NotificationSection(title: headline.symbol,
                                                                  lines: [headline.title, "\(source)\(headline.publishedAt.rfc3339)",
                                                                          headline.link])],
                                   data: json.result)
    }
}
