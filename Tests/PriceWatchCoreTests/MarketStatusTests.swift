import PriceWatchCore
import Testing

/// What a market's next change is, as pages, `watch`, `market` and digests show it.
struct MarketStatusTests {
    @Test func aMarketThatNeverClosesHasNoKnownNextChange() {
        let close = Timestamp(milliseconds: 1_800_000_000_000)
        #expect(MarketStatus.open(until: close).nextKnownChange == close)
        #expect(MarketStatus.closed(until: close).nextKnownChange == close)
        #expect(MarketStatus.closed(until: nil).nextKnownChange == nil)
        #expect(MarketStatus.open(until: Timestamp(milliseconds: .max)).nextKnownChange == nil)
        #expect(MarketStatus.open(until: Timestamp(milliseconds: .max)).nextChange == Timestamp(milliseconds: .max))
    }
}
