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
