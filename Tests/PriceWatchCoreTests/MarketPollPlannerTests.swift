import PriceWatchCore
import PriceWatchTestKit
import Testing

/// Market-aware polling's decision, pure: closed markets get one closing poll and then rest
/// until the open; unknown markets are always polled; each open or close is one change.
@Suite struct MarketPollPlannerTests {
    static let hours = WeeklyMarketHours.sample(symbols: [
        "AAPL": MarketIdentifier("XNYS"), "MSFT": MarketIdentifier("XNYS"), "SAP.DE": MarketIdentifier("XETR"),
        "7203.T": MarketIdentifier("XTKS"), "BTC-USD": .crypto,
    ])
    static let symbols = ["AAPL", "MSFT", "SAP.DE", "7203.T", "BTC-USD", "UNLISTED"]

    /// 2026-11-20 is a Friday; `time("2026-11-20T21:00:00Z")`.
    static func time(_ text: String) throws -> Timestamp {
        try #require(Timestamp(parsing: text), "bad test time \(text)")
    }

    @Test func aClosedMarketGetsOneClosingPollThenNoneUntilItOpens() throws {
        var planner = MarketPollPlanner(symbols: ["AAPL", "MSFT", "BTC-USD"], hours: Self.hours)
        // 15:59 New York: open.
        var plan = planner.plan(at: try Self.time("2026-11-20T20:59:00Z"))
        #expect(plan.fetch == ["AAPL", "MSFT", "BTC-USD"])
        #expect(plan.changes.isEmpty && plan.closed.isEmpty)
        // 16:00: closed; this tick is the closing poll.
        plan = planner.plan(at: try Self.time("2026-11-20T21:00:00Z"))
        #expect(plan.fetch == ["AAPL", "MSFT", "BTC-USD"])
        #expect(plan.closed == ["AAPL", "MSFT"])
        #expect(plan.changes == [.closed(MarketIdentifier("XNYS"), symbols: 2, nextOpen: try Self.time("2026-11-23T14:30:00Z"))])
        // Every tick of the weekend: crypto only, no further change.
        for minute in 1...120 {
            plan = planner.plan(at: Timestamp(seconds: try Self.time("2026-11-20T21:00:00Z").seconds + Int64(minute) * 60))
            #expect(plan.fetch == ["BTC-USD"])
            #expect(plan.changes.isEmpty)
        }
        #expect(planner.savedFetches == 240)
        // Monday 09:30 New York: open again, with what the close saved.
        plan = planner.plan(at: try Self.time("2026-11-23T14:30:00Z"))
        #expect(plan.fetch == ["AAPL", "MSFT", "BTC-USD"])
        #expect(plan.closed.isEmpty)
        #expect(plan.changes == [.opened(MarketIdentifier("XNYS"), symbols: 2, savedFetches: 240)])
    }

    @Test func startingWhileClosedFetchesOnceAndUnknownMarketsAlways() throws {
        var planner = MarketPollPlanner(symbols: Self.symbols, hours: Self.hours)
        // Saturday noon UTC: every exchange closed.
        let saturday = try Self.time("2026-11-21T12:00:00Z")
        var plan = planner.plan(at: saturday)
        #expect(plan.fetch == Self.symbols, "one poll for the prices at the close")
        #expect(Set(plan.changes.map(Self.market)) == ["XNYS", "XETR", "XTKS"])
        plan = planner.plan(at: Timestamp(seconds: saturday.seconds + 60))
        #expect(plan.fetch == ["BTC-USD", "UNLISTED"])
        #expect(plan.closed == ["AAPL", "MSFT", "SAP.DE", "7203.T"])
    }

    @Test func aLunchBreakIsAClosedPeriodOfItsOwn() throws {
        var planner = MarketPollPlanner(symbols: ["7203.T"], hours: Self.hours)
        // Tokyo: 11:29 open, 11:30 break (closing poll), 11:31 nothing, 12:30 open again.
        #expect(planner.plan(at: try Self.time("2026-11-20T02:29:00Z")).fetch == ["7203.T"])
        #expect(planner.plan(at: try Self.time("2026-11-20T02:30:00Z")).fetch == ["7203.T"])
        #expect(planner.plan(at: try Self.time("2026-11-20T02:31:00Z")).fetch == [])
        let reopened = planner.plan(at: try Self.time("2026-11-20T03:30:00Z"))
        #expect(reopened.fetch == ["7203.T"])
        #expect(reopened.changes == [.opened(MarketIdentifier("XTKS"), symbols: 1, savedFetches: 1)])
        // 15:00: the day's close is a new closed period: one more closing poll.
        #expect(planner.plan(at: try Self.time("2026-11-20T06:00:00Z")).fetch == ["7203.T"])
        #expect(planner.plan(at: try Self.time("2026-11-20T06:01:00Z")).fetch == [])
    }

    @Test func anOverrideWinsOverTheResolvedMarket() throws {
        var planner = MarketPollPlanner(symbols: ["AAPL"], overrides: ["AAPL": .crypto], hours: Self.hours)
        #expect(planner.market(of: "AAPL") == .crypto)
        _ = planner.plan(at: try Self.time("2026-11-21T12:00:00Z"))
        #expect(planner.plan(at: try Self.time("2026-11-21T12:01:00Z")).fetch == ["AAPL"])
    }

    @Test func withoutCalendarsEverythingIsPolledAlways() throws {
        var planner = MarketPollPlanner(symbols: Self.symbols, hours: AlwaysOpenMarkets())
        for minute in 0..<10 {
            let plan = planner.plan(at: Timestamp(seconds: try Self.time("2026-11-21T12:00:00Z").seconds + Int64(minute) * 60))
            #expect(plan.fetch == Self.symbols && plan.changes.isEmpty && plan.closed.isEmpty)
        }
        #expect(planner.savedFetches == 0)
    }

    static func market(_ change: MarketPollPlanner.Change) -> String {
        switch change {
        case .closed(let market, _, _), .opened(let market, _, _): market.rawValue
        }
    }
}
