import PriceWatchCore
import PriceWatchTestKit
import Testing

/// A quote without an exchange time zone gets its market's from the calendars, so
/// `{{local_time}}` prints in the market's zone.
@Suite struct QuoteMarketTimeZoneTests {
    static let hours = WeeklyMarketHours.sample(symbols: ["SAP.DE": MarketIdentifier("XETR"), "7203.T": MarketIdentifier("XTKS")])
    static func quote(_ symbol: String, zone: String? = nil) -> Quote {
        Quote(symbol: symbol, price: ExactDecimal("2")!, time: Timestamp(seconds: 1_727_875_800), exchangeTimeZone: zone)
    }

    @Test func theMarketsZoneFillsAMissingOne() {
        #expect(Self.quote("SAP.DE").withMarketTimeZone(from: Self.hours).exchangeTimeZone == "Europe/Berlin")
    }

    @Test func theProvidersZoneIsKept() {
        #expect(Self.quote("SAP.DE", zone: "Europe/Paris").withMarketTimeZone(from: Self.hours).exchangeTimeZone == "Europe/Paris")
    }

    @Test func theRulesMarketOverrideWins() {
        let quote = Self.quote("SAP.DE").withMarketTimeZone(from: Self.hours, market: MarketIdentifier("XTKS"))
        #expect(quote.exchangeTimeZone == "Asia/Tokyo")
    }

    @Test func anUnknownMarketLeavesNoZone() {
        #expect(Self.quote("AAPL").withMarketTimeZone(from: Self.hours).exchangeTimeZone == nil)
        #expect(Self.quote("SAP.DE").withMarketTimeZone(from: AlwaysOpenMarkets()).exchangeTimeZone == nil)
    }
}
