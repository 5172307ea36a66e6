import Foundation
import PriceWatchCore
import PriceWatchPresentation
import Testing

/// The watchlist row at a fixed clock, with a small test calendar: market status and time to
/// the next change, change from the previous close, day range, sparkline, rule states.
@Suite struct WatchlistEntryTests {
    /// New York's regular session on 2024-10-02 (13:30-20:00 UTC), closed otherwise; crypto
    /// always open; nothing else known.
    struct TestCalendar: MarketHours {
        static let open = Timestamp(seconds: 1_727_875_800)
        static let close = Timestamp(seconds: 1_727_899_200)
        static let nextOpen = Timestamp(seconds: 1_727_962_200)

        func market(ofSymbol symbol: String, exchange: String?) -> MarketIdentifier? {
            symbol.hasSuffix("-USD") ? .crypto : exchange == "NMS" ? MarketIdentifier("XNAS") : nil
        }

        func status(of market: MarketIdentifier, at instant: Timestamp) -> MarketStatus {
            if market == .crypto { return .open(until: Timestamp(milliseconds: .max)) }
            if instant < Self.open { return .closed(until: Self.open) }
            if instant < Self.close { return .open(until: Self.close) }
            return .closed(until: Self.nextOpen)
        }

        func timeZone(of market: MarketIdentifier) -> String? { market == .crypto ? "UTC" : "America/New_York" }
    }

    static func d(_ text: String) -> ExactDecimal { ExactDecimal(text)! }

    static func aapl(now: Timestamp) -> WatchlistEntry {
        let calendar = TestCalendar()
        let market = calendar.market(ofSymbol: "AAPL", exchange: "NMS")
        return WatchlistEntry(symbol: "AAPL", provider: "yahoo", price: d("226.8"), time: Timestamp(seconds: 1_727_899_140),
                              previousClose: d("226.21"), currency: "USD",
                              dayCloses: ["225.7", "224", "223.5", "225", "226", "226.5", "226.8"].map(d),
                              dayLow: d("223.32"), dayHigh: d("227.37"), market: market,
                              marketStatus: market.map { calendar.status(of: $0, at: now) },
                              rules: [.init(rule: "aapl-above-226.5", state: .fired), .init(rule: "aapl-fall-1pct", state: .armed)])
    }

    @Test func openMarketClosesInAndTheRowInNewYorkTime() throws {
        let now = Timestamp(seconds: 1_727_891_400) // 17:50 UTC
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        #expect(Self.aapl(now: now).row(now: now, zone: zone) == [
            "AAPL", "226.80", "+0.26%", "USD", "223.32-227.37", "▆▂▁▄▆▇█", "XNAS open, closes in 2h10m", "2024-10-02 15:59",
            "aapl-above-226.5 fired, aapl-fall-1pct armed",
        ])
    }

    @Test func closedMarketOpensInAcrossTheNight() throws {
        let now = Timestamp(seconds: 1_727_900_000) // 20:13:20 UTC, after the close: the next open is 13:30 UTC tomorrow
        #expect(Self.aapl(now: now).marketText(now: now) == "XNAS closed, opens in 17h16m")
        let weekend = Timestamp(seconds: 1_727_700_000)
        #expect(Self.aapl(now: weekend).marketText(now: weekend) == "XNAS closed, opens in 2d0h")
    }

    @Test func cryptoIsOpenWithoutACloseAndUnknownMarketsShowADash() throws {
        let calendar = TestCalendar()
        let now = Timestamp(seconds: 1_727_891_400)
        let btc = WatchlistEntry(symbol: "BTC-USD", provider: "coinbase", market: .crypto,
                                 marketStatus: calendar.status(of: .crypto, at: now))
        #expect(btc.marketText(now: now) == "24/7 open")
        #expect(btc.row(now: now, zone: TimeZone(identifier: "UTC")!) == ["BTC-USD", "-", "-", "-", "-", "-", "24/7 open", "-", "-"])
        #expect(btc.jsonLine(now: now) == #"{"symbol":"BTC-USD","provider":"coinbase","price":null,"time":null,"previous_close":null,"change":null,"currency":null,"day_low":null,"day_high":null,"day_closes":0,"sparkline":null,"market":"24/7","market_state":"open","market_next_change":null,"rules":[]}"#)
        let unknown = WatchlistEntry(symbol: "XYZ", provider: nil)
        #expect(unknown.marketText(now: now) == "-")
    }

    @Test func jsonCarriesTheMarketsNextChangeInUTC() {
        let now = Timestamp(seconds: 1_727_891_400)
        let line = Self.aapl(now: now).jsonLine(now: now)
        #expect(line.contains(#""market":"XNAS","market_state":"open","market_next_change":"2024-10-02T20:00:00Z""#))
        #expect(line.contains(#""change":0.26"#))
        #expect(line.contains(#""rules":[{"rule":"aapl-above-226.5","state":"fired"},{"rule":"aapl-fall-1pct","state":"armed"}]"#))
    }

    @Test func sparklineSamplesToItsWidth() {
        #expect(Sparkline.render([], width: 10) == "")
        #expect(Sparkline.render(["1", "1", "1"].map(Self.d), width: 10) == "▄▄▄")
        #expect(Sparkline.render((1...100).map { ExactDecimal(exactly: $0)! }, width: 8) == "▁▂▃▄▅▆▇█")
    }

    @Test func aTechnicalRuleShowsItsSeriesOrItsWarmUp() throws {
        let condition = SeriesCondition(timeframe: try #require(Timeframe("1m")), of: .price, level: try SeriesSpec(parsing: "sma(3)"))
        let bars = [101.0, 102, 103, 104].enumerated().map { index, close in
            BarHistory.Bar(start: Int64(index) * 60_000, time: Timestamp(milliseconds: Int64(index) * 60_000),
                           close: ExactDecimal(fast: close) ?? .zero)
        }
        let ready = WatchlistEntry.RuleState(rule: "btc-cross", state: .armed, series: SeriesSnapshot(condition: condition, bars: bars))
        #expect(ready.text == "btc-cross armed (price 104.00, sma(3) 103.00)")
        let warming = WatchlistEntry.RuleState(rule: "btc-cross", state: .armed,
                                               series: SeriesSnapshot(condition: condition, bars: Array(bars.prefix(2))))
        #expect(warming.text == "btc-cross warming up: 2 of 3 bars")
        #expect(WatchlistEntry.RuleState(rule: "plain", state: .fired).text == "plain fired")
        let entry = WatchlistEntry(symbol: "BTC-USD", provider: "coinbase", rules: [ready, warming])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(entry.jsonLine(now: Timestamp(seconds: 0)).utf8)) as? [String: Any])
        let rules = try #require(json["rules"] as? [[String: Any]])
        #expect(rules.first?["state"] as? String == "armed")
        #expect((rules.first?["sma(3)"] as? NSNumber)?.doubleValue == 103)
        #expect(rules.first?["bars_needed"] as? Int == 3)
        #expect(rules.last?["state"] as? String == "warming up")
        #expect(entry.row(now: Timestamp(seconds: 0), zone: .gmt).last == "btc-cross armed (price 104.00, sma(3) 103.00), btc-cross warming up: 2 of 3 bars")
    }
}
