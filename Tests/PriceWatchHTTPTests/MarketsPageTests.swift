import PriceWatchCore
@testable import PriceWatchHTTP
import Testing

/// The markets page: each calendar's state and next change, then the watched symbols by market
/// with the watchlist's figures, those on no known market last.
struct MarketsPageTests {
    @Test func marketsAndTheirWatchedSymbols() {
        let now = Timestamp(milliseconds: 1_800_000_000_000)
        let close = Timestamp(milliseconds: now.milliseconds + 3_600_000)
        let markets = [
            DashboardMarket(code: "24/7", name: "Crypto", timeZone: "UTC", status: .open(until: Timestamp(milliseconds: .max))),
            DashboardMarket(code: "XNYS", name: "New York Stock Exchange", timeZone: "America/New_York", status: .open(until: close)),
            DashboardMarket(code: "XTKS", name: "Tokyo <Stock> Exchange", timeZone: "Asia/Tokyo", status: .closed(until: nil)),
        ]
        let point = HistoryPoint(time: now, price: ExactDecimal(scaled: 101_00000000))
        let snapshot = DashboardSnapshot(symbols: [
            .init(symbol: "ZZZ", provider: "p", lastPrice: nil, market: nil),
            .init(symbol: "AAPL", provider: "p", lastPrice: point, previousClose: ExactDecimal(scaled: 100_00000000),
                  market: .open(until: close), marketName: "XNYS"),
            .init(symbol: "BTC-USD", provider: "p", lastPrice: nil, market: .open(until: Timestamp(milliseconds: .max)), marketName: "24/7"),
        ], now: now)
        let page = MarketsPage.page(markets, snapshot: snapshot, live: LiveQuotes())
        #expect(page.contains("<tr><td>24/7</td><td>Crypto</td><td class=\"up\">open</td><td>–</td><td>UTC</td></tr>"),
                "a market that never closes has no countdown")
        #expect(page.contains("<td class=\"up\">open</td><td>closes <time datetime=\"\(close.rfc3339)\">"))
        #expect(page.contains("<td class=\"muted\">closed</td><td>–</td>"), "no known next open is not invented")
        #expect(page.contains("Tokyo &lt;Stock&gt; Exchange"))
        #expect(page.contains("<h2>XNYS · New York Stock Exchange</h2>"))
        #expect(page.contains("<a href=\"symbol/AAPL\">AAPL</a></td><td class=\"price\">101.00</td><td class=\"change up\">+1.00%</td>"),
                "the watchlist's figures")
        let crypto = page.range(of: "<h2>24/7 · Crypto</h2>"), unknown = page.range(of: "<h2>Symbols on no known market</h2>")
        #expect(crypto != nil && unknown != nil && crypto!.lowerBound < unknown!.lowerBound, "the unknown market last")
        let none = MarketsPage.page([], snapshot: DashboardSnapshot(now: now), live: LiveQuotes())
        #expect(none.contains("no trading calendars are loaded"))
    }

    /// Issue 26: a market whose session under way (or next) closes early says when, in the
    /// market's time, on its row and on the tiles of its symbols: a calendar of the NYSE's hours
    /// with the day after Thanksgiving's early close, at instants given (never the real time).
    @Test func anEarlyCloseIsSaidOnTheMarketsRowAndItsTiles() throws {
        let open = try #require(LocalTime(hour: 9, minute: 30)), close = try #require(LocalTime(hour: 16, minute: 0))
        let halfDay = try #require(LocalTime(hour: 13, minute: 0))
        let thanksgiving = CalendarDateRule.Basis.nthWeekday(month: 11, weekday: .thursday, nth: 4)
        let nyse = try #require(TradingCalendar(
            market: MarketIdentifier("XNYS"), name: "New York Stock Exchange", timeZoneIdentifier: "America/New_York",
            tradingDays: [.monday, .tuesday, .wednesday, .thursday, .friday], hours: [.init(open: open, close: close)],
            holidays: [.init(name: "Thanksgiving Day", rule: CalendarDateRule(thanksgiving))],
            earlyCloses: [.init(name: "Day after Thanksgiving", rule: CalendarDateRule(thanksgiving, offsetDays: 1), time: halfDay)]))
        func page(at text: String) throws -> String {
            let now = try #require(Timestamp(parsing: text))
            let market = DashboardMarket(code: "XNYS", name: nyse.name, timeZone: nyse.timeZoneIdentifier, status: nyse.status(at: now),
                                         earlyClose: nyse.earlyClose(at: now))
            var snapshot = DashboardSnapshot(now: now)
            snapshot.marketList = [.init(symbol: "^GSPC", provider: "p", lastPrice: nil, market: nyse.status(at: now), marketName: "XNYS")]
            return MarketsPage.page([market], snapshot: snapshot, live: LiveQuotes())
        }
        // 27 November 2026, 10:00 in New York (EST, -05:00): open, closing at 13:00.
        let friday = try page(at: "2026-11-27T15:00:00Z")
        #expect(friday.contains("<td class=\"up\">open, <span class=\"early-close\">early close 13:00 -05:00</span></td>"
                                + "<td>closes <time datetime=\"2026-11-27T18:00:00Z\">"), "\(friday)")
        #expect(friday.contains("· XNYS open, <span class=\"early-close\">early close 13:00 -05:00</span></p>"), "the tile")
        // Before the open the next session's early close is said beside "closed".
        #expect(try page(at: "2026-11-27T12:00:00Z").contains("<td class=\"muted\">closed, <span class=\"early-close\">early close 13:00 -05:00</span>"))
        // After it, Monday's session is a regular one: nothing more than "closed".
        let after = try page(at: "2026-11-27T18:30:00Z")
        #expect(after.contains("<td class=\"muted\">closed</td>") && !after.contains("early close"))
        let tuesday = try page(at: "2026-11-24T15:00:00Z")
        #expect(tuesday.contains("<td class=\"up\">open</td>") && !tuesday.contains("early close"), "a regular day")
    }

    /// Issue 26, item 3: a configured list (`[http] markets`) replaces the watched symbols by
    /// market: tiles in the order written with price, change, a day chart, range and market; a
    /// symbol no rule watches has no page to link to.
    @Test func aConfiguredListIsShownAsTilesInItsOrder() {
        let now = Timestamp(milliseconds: 1_800_000_000_000)
        let points = (0..<5).map { HistoryPoint(time: Timestamp(milliseconds: now.milliseconds - Int64(4 - $0) * 60_000),
                                                price: ExactDecimal(scaled: Int64(5_000 + $0 * 10) * 100_000_000)) }
        var snapshot = DashboardSnapshot(symbols: [.init(symbol: "AAPL", provider: "p", lastPrice: nil, market: nil)], now: now)
        snapshot.marketList = [
            .init(symbol: "^GSPC", provider: "p", lastPrice: points.last, previousClose: ExactDecimal(scaled: 5_000 * 100_000_000),
                  market: .open(until: Timestamp(milliseconds: now.milliseconds + 3_600_000)), dayPoints: points, marketName: "XNYS",
                  currency: "USD"),
            .init(symbol: "AAPL", provider: "p", lastPrice: nil, market: nil),
        ]
        let page = MarketsPage.page([], snapshot: snapshot, live: LiveQuotes())
        #expect(page.contains("<h2>Indices, futures, currencies and crypto</h2>"))
        let gspc = page.firstRange(of: "data-symbol=\"^GSPC\"")?.lowerBound, aapl = page.firstRange(of: "data-symbol=\"AAPL\"")?.lowerBound
        #expect(gspc.flatMap { first in aapl.map { first < $0 } } == true, "both tiles, in the order written")
        #expect(page.contains("<h3>^GSPC</h3><p><span class=\"price\">5040.00</span> <span class=\"muted\">USD</span> "
                              + "<span class=\"change up\">+0.80%</span></p>"), "\(page)")
        #expect(page.contains("day 5000.00 – 5040.00 · XNYS open"))
        #expect(page.contains("<h3><a href=\"symbol/AAPL\">AAPL</a></h3>"), "a watched symbol links to its page")
        #expect(page.contains("no prices yet today"))
        #expect(!page.contains("Symbols on no known market"), "the list replaces the grouping")
    }
}
