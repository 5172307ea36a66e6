import PriceWatchCore
import Testing

/// The engine's working set of one source's prices: window lookups find their anchor, and the
/// entries no lookup needs are dropped soon, not after a thousand polls.
struct SymbolHistoryTests {
    static func time(_ minute: Int64) -> Timestamp { Timestamp(milliseconds: 1_727_875_800_000 + minute * 60_000) }
    static func price(_ value: Int64) -> ExactDecimal { ExactDecimal(scaled: value * ExactDecimal.unit) }

    @Test func withoutAWindowOnlyAFewEntriesAreKeptHoweverManyQuotesCome() {
        var history = SymbolHistory()
        var largest = 0
        for minute in 0..<10_000 as Range<Int64> {
            history.append(time: Self.time(minute), price: Self.price(100 + minute % 7))
            history.trim(window: nil)
            largest = max(largest, history.storedCount)
        }
        #expect(history.count == 1, "the newest entry stays")
        #expect(largest <= 40, "at most a few dozen entries stored at any time, found \(largest)")
        #expect(history.latestTime == Self.time(9_999))
        #expect(history.price(atOrBefore: Self.time(9_999)) == Self.price(100 + 9_999 % 7))
    }

    @Test func aWindowKeepsItsAnchorAndDropsWhatIsOlder() throws {
        var history = SymbolHistory()
        let hour = try #require(RuleDuration(seconds: 3_600))
        var largest = 0
        for minute in 0..<5_000 as Range<Int64> {
            history.append(time: Self.time(minute), price: Self.price(minute))
            history.trim(window: hour)
            largest = max(largest, history.storedCount)
            // The base of "moved in an hour": the latest price at or before an hour ago.
            if minute >= 60 { #expect(history.price(atOrBefore: Self.time(minute - 60)) == Self.price(minute - 60)) }
        }
        #expect(history.count == 61, "the hour's 60 minutes and the anchor")
        #expect(largest <= 2 * 61 + 16, "storage stays within twice the live entries, found \(largest)")
    }
}
