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
}
