import PriceWatchCore
import PriceWatchTestKit
import Testing

/// A bare ticker has no market until its quotes say where it trades: the planner learns it
/// from their exchange codes and from then on rests it while that market is closed.
@Suite struct MarketPollPlannerLearningTests {
    /// Knows markets only by exchange code (`NMS` is New York), as a calendar does for bare tickers.
    struct ByExchange: MarketHours {
        let weekly = WeeklyMarketHours.sample(symbols: [:])
        func market(ofSymbol symbol: String, exchange: String?) -> MarketIdentifier? { exchange == "NMS" ? MarketIdentifier("XNYS") : nil }
        func status(of market: MarketIdentifier, at instant: Timestamp) -> MarketStatus { weekly.status(of: market, at: instant) }
        func timeZone(of market: MarketIdentifier) -> String? { weekly.timeZone(of: market) }
    }

    @Test func aBareTickerLearnsItsMarketFromTheQuotesExchange() throws {
        var planner = MarketPollPlanner(symbols: ["AAPL", "ZZZ"], hours: ByExchange())
        #expect(planner.unresolvedCount == 2)
        // Saturday 2026-11-21 12:00 UTC: New York is closed, but nothing is known yet.
        let saturday = try #require(Timestamp(parsing: "2026-11-21T12:00:00Z"))
        #expect(planner.plan(at: saturday).fetch == ["AAPL", "ZZZ"])
        planner.learn(exchanges: ["AAPL": "NMS"])
        #expect(planner.unresolvedCount == 1)
        planner.learn(exchanges: ["ZZZ": "???"])
        #expect(planner.unresolvedCount == 0, "a code the calendars do not know is tried once")
        #expect(planner.market(of: "ZZZ") == nil)
        #expect(planner.market(of: "AAPL") == MarketIdentifier("XNYS"))
        // The first tick after learning is the closing poll, then AAPL rests; ZZZ stays polled.
        _ = planner.plan(at: Timestamp(seconds: saturday.seconds + 60))
        #expect(planner.plan(at: Timestamp(seconds: saturday.seconds + 120)).fetch == ["ZZZ"])
    }
}
