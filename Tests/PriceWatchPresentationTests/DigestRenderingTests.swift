import Foundation
import PriceWatchCore
import PriceWatchPresentation
import PriceWatchTestKit
import Testing

/// A digest over recorded monthly prices with a fixed due time: golden text and HTML.
@Suite struct DigestRenderingTests {
    /// A market calendar for the tests: XNYS is closed for a holiday until the given instant.
    struct HolidayMarkets: MarketHours {
        var reopens: Timestamp

        func market(ofSymbol symbol: String, exchange: String?) -> MarketIdentifier? { MarketIdentifier("XNYS") }
        func status(of market: MarketIdentifier, at instant: Timestamp) -> MarketStatus {
            market == MarketIdentifier("XNYS") && instant < reopens ? .closed(until: reopens) : .open(until: Timestamp(milliseconds: .max))
        }
        func timeZone(of market: MarketIdentifier) -> String? { "America/New_York" }
    }

    static func alert(_ rule: String, _ symbol: String, _ time: String, _ price: String) throws -> Alert {
        Alert(id: NotificationID.make(kind: .alert, parts: [rule, time]), rule: rule, symbol: symbol, provider: "yahoo",
              condition: "below", price: try #require(ExactDecimal(price)), currency: "USD",
              time: try #require(Timestamp(parsing: time)), base: nil, change: nil, direction: nil,
              message: "\(symbol) fell below \(price)")
    }

    static func october2008() throws -> Digest {
        let due = try #require(Timestamp(parsing: "2008-10-02T12:00:00Z"))
        let composer = DigestComposer(name: "monthly", period: .month, timeZone: "America/New_York", topCount: 2,
                                      markets: [MarketIdentifier("XNYS"), .crypto])
        let window = try #require(composer.window(due: due))
        let inside = try alert("aapl-falls", "AAPL", "2008-09-29T17:05:00Z", "105.00")
        let before = try alert("ibm-falls", "IBM", "2008-08-01T15:00:00Z", "120.00")
        let created = try #require(Timestamp(parsing: "2008-09-29T17:05:01Z"))
        let records = [
            AlertRecord(alert: before, deliveries: []),
            AlertRecord(alert: inside, deliveries: [
                Delivery(notification: OutgoingNotification(inside), sink: "ops", status: .delivered, attempts: 1,
                         createdAt: created, nextAttemptAt: nil, deliveredAt: created),
                Delivery(notification: OutgoingNotification(inside), sink: "mail", status: .pending, attempts: 3,
                         createdAt: created, nextAttemptAt: created),
            ]),
        ]
        return composer.compose(due: due, window: window, candles: try MonthlyPrices.candles(), alerts: records,
                                marketHours: HolidayMarkets(reopens: try #require(Timestamp(parsing: "2008-10-02T13:30:00Z"))),
                                sections: [DigestSectionContent(title: "Portfolio", lines: ["value 10 000 USD <test>"])])
    }

    func matchesGolden(_ actual: String, _ name: String) {
        let path = RepositoryFiles.path("Tests/Fixtures/digest/\(name)")
        guard let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
            _ = FileManager.default.createFile(atPath: path, contents: Data(actual.utf8))
            Issue.record("no golden file at \(path): wrote the current output; review it and commit it")
            return
        }
        #expect(actual == expected, "differs from \(path)")
    }

    @Test func goldenText() throws {
        let message = DigestNotification(try Self.october2008()).message()
        matchesGolden(message.text, "monthly-2008-10.txt")
        #expect(message.title == "pricewatch digest monthly: 2008-09-02 08:00 to 2008-10-02 08:00")
    }

    @Test func goldenHTML() throws {
        let html = try #require(DigestNotification(try Self.october2008()).message().html)
        matchesGolden(html, "monthly-2008-10.html")
        // Mail-safe: no scripts, no external resources, no style sheets; section text escaped.
        #expect(!html.contains("<script") && !html.contains("src=\"http") && !html.contains("<link") && !html.contains("<style"))
        #expect(html.contains("&lt;test&gt;"))
    }

    @Test func theDigestIsANotificationOfKindDigest() throws {
        let digest = try Self.october2008()
        let notification = OutgoingNotification(id: NotificationID.make(kind: .digest, parts: ["monthly", "2008-10-02"]),
                                                time: digest.window.upperBound, content: DigestNotification(digest))
        #expect(notification.kind == .digest)
        #expect(notification.message?.text.contains("Top gainers") == true)
        // Only the period's alert, with each sink's state.
        #expect(digest.alerts.map(\.alert.rule) == ["aapl-falls"])
        #expect(notification.message?.text.contains("delivered to ops") == true)
    }

    /// A digest due on a market holiday (Thanksgiving 2024) shows the market closed until it
    /// reopens, in the digest's time zone.
    @Test func aMarketHolidayShowsTheMarketClosedUntilItReopens() throws {
        let due = try #require(Timestamp(parsing: "2024-11-28T22:00:00Z"))
        let composer = DigestComposer(name: "daily", period: .day, timeZone: "America/New_York", markets: [MarketIdentifier("XNYS")])
        let window = try #require(composer.window(due: due))
        let digest = composer.compose(due: due, window: window, candles: [:], alerts: [],
                                      marketHours: HolidayMarkets(reopens: try #require(Timestamp(parsing: "2024-11-29T14:30:00Z"))))
        #expect(DigestNotification(digest).message().text.contains("  XNYS closed until 2024-11-29 09:30\n"), "\(DigestNotification(digest).message().text)")
    }
}
