import PriceWatchCore
import Testing

/// Which headlines go to which news rule, and how `match` reads a headline.
@Suite struct NewsSelectionTests {
    static let start = Timestamp(milliseconds: 1_800_000_000_000)

    static func headline(_ title: String, guid: String, link: String? = nil, at offset: Int64) -> NewsHeadline {
        NewsHeadline(symbol: "AAPL", title: title, link: link ?? "https://example.com/\(guid)", guid: guid,
                     publishedAt: Timestamp(milliseconds: start.milliseconds + offset * 1000))
    }

    @Test(arguments: [
        ("Apple lifts guidance", true), ("GUIDANCE cut", true), ("Apple's guidance, again", true),
        ("Analysts downgraded Apple", true), ("New price  target for Apple", true),
        ("Misguidance", false), ("Apple in accurate terms", false), ("", false), ("price", false),
    ])
    func matchFindsTermsAtTheStartOfAWord(title: String, matches: Bool) {
        let match = HeadlineMatch(["guidance", "downgrade", "Price Target", "rat"])
        #expect(match.matches(title) == matches, "\(title)")
    }

    @Test func noTermsMatchEveryHeadline() {
        #expect(HeadlineMatch().matches("anything"))
        #expect(HeadlineMatch().matches(""))
    }

    @Test func onlyNewerThanTheRuleRecentEnoughAndMatchingArePicked() {
        let rule = EventRule(id: "r", event: .news, symbols: ["AAPL"], match: HeadlineMatch(["recall"]), notify: ["console"])
        let other = EventRule(id: "all", event: .news, symbols: ["AAPL"], notify: ["console"])
        let disabled = EventRule(id: "off", event: .news, symbols: ["AAPL"], enabled: false)
        let unseen = [
            Self.headline("Apple recall widens", guid: "before", at: -1),
            Self.headline("Apple recall widens", guid: "at", at: 0),
            Self.headline("Apple opens a store", guid: "later", at: 60),
        ]
        let now = Timestamp(milliseconds: Self.start.milliseconds + 120_000)
        let picks = NewsSelection.picks(unseen: unseen, rules: [rule, other, disabled],
                                        starts: ["r": Self.start, "all": Self.start, "off": Self.start], now: now)
        #expect(picks.map { "\($0.rule.id):\($0.headline.guid)" } == ["r:at", "all:at", "all:later"])
        // A rule without a recorded start picks nothing.
        #expect(NewsSelection.picks(unseen: unseen, rules: [other], starts: [:], now: now).isEmpty)
        // Older than the maximum age: never, even for a rule that started long ago.
        let muchLater = Timestamp(milliseconds: Self.start.milliseconds + NewsSettings.maximumAge.seconds * 1000 + 1000)
        #expect(NewsSelection.picks(unseen: unseen, rules: [other], starts: ["all": Timestamp(milliseconds: 0)], now: muchLater)
            .map(\.headline.guid) == ["later"])
    }

    @Test func aStoryListedTwiceByGuidOrByLinkIsOneStory() {
        let list = [
            Self.headline("A", guid: "1", link: "https://example.com/a", at: 0),
            Self.headline("A again", guid: "1", link: "https://example.com/a2", at: 0),
            Self.headline("A moved", guid: "2", link: "https://example.com/a", at: 0),
            Self.headline("B", guid: "3", at: 0),
        ]
        #expect(NewsSelection.distinctStories(list).map(\.guid) == ["1", "3"])
    }

    @Test func theNotificationCarriesTitleSourceTimeAndLinkUnderAStableID() {
        var headline = Self.headline("Apple recall widens", guid: "g-1", at: 0)
        headline.sourceName = "Reuters"
        let content = NewsNotification(headline: headline, rule: "aapl-news", feed: "yahoo")
        let message = content.message()
        #expect(message.title == "AAPL: Apple recall widens")
        #expect(message.text == "Apple recall widens\nReuters, 2027-01-15T08:00:00Z (yahoo feed, rule aapl-news)\nhttps://example.com/g-1")
        #expect(message.data == #"{"symbol":"AAPL","title":"Apple recall widens","link":"https://example.com/g-1","guid":"g-1","#
                + #""source":"Reuters","published_at":"2027-01-15T08:00:00Z","feed":"yahoo","rule":"aapl-news"}"#)
        #expect(content.notificationID == NewsNotification(headline: headline, rule: "aapl-news", feed: "other").notificationID)
        #expect(content.notificationID != NewsNotification(headline: headline, rule: "other-rule", feed: "yahoo").notificationID)
        #expect(NewsNotification.kind.rawValue == "news")
    }
}
