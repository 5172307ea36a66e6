import PriceWatchCore
import Testing

/// A chart's session breaks: one at the first price of each new day in the market's zone.
struct SessionBreaksTests {
    static func time(_ text: String) -> Timestamp {
        Timestamp(parsing: text) ?? Timestamp(milliseconds: 0)
    }

    @Test func aBreakAtTheFirstPriceOfEachNewDayInTheMarketsZone() {
        // New York's sessions of 2 and 3 October 2024 (13:30-20:00 UTC) and 4 October's open.
        let times = ["2024-10-02T13:30:00Z", "2024-10-02T19:59:00Z", "2024-10-03T13:30:00Z", "2024-10-03T19:59:00Z",
                     "2024-10-04T13:30:00Z"].map(Self.time)
        #expect(SessionBreaks.between(times, timeZone: "America/New_York") == [times[2], times[4]])
    }

    @Test func theDayIsTheZonesNotUTCs() {
        // 23:30 and 00:30 UTC are the same evening in New York: no break there; Tokyo's
        // morning of the next day is one.
        let times = ["2024-10-02T23:30:00Z", "2024-10-03T00:30:00Z"].map(Self.time)
        #expect(SessionBreaks.between(times, timeZone: "America/New_York").isEmpty)
        #expect(SessionBreaks.between(times, timeZone: "UTC") == [times[1]])
        #expect(SessionBreaks.between(times, timeZone: "Not/AZone") == [times[1]], "an unknown zone reads as UTC")
    }

    @Test func noPricesOrOneDayHaveNoBreaks() {
        #expect(SessionBreaks.between([], timeZone: "UTC").isEmpty)
        #expect(SessionBreaks.between([Self.time("2024-10-02T13:30:00Z"), Self.time("2024-10-02T19:00:00Z")], timeZone: "UTC").isEmpty)
    }
}
