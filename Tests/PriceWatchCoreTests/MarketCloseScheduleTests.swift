import PriceWatchCore
import Testing

/// A digest `on_close`: due at each close the market hours give, none on weekends, an early
/// close on its day, never for a market that never closes.
@Suite struct MarketCloseScheduleTests {
    /// Weekdays 13:30 to 20:00 UTC; Wednesday 2024-10-02 closes early at 17:00.
    struct Weekdays: MarketHours {
        func market(ofSymbol symbol: String, exchange: String?) -> MarketIdentifier? { nil }
        func timeZone(of market: MarketIdentifier) -> String? { nil }

        func status(of market: MarketIdentifier, at instant: Timestamp) -> MarketStatus {
            if market == .crypto { return .open(until: Timestamp(milliseconds: .max)) }
            let day: Int64 = 86_400
            let seconds = instant.seconds
            var start = seconds - ((seconds % day) + day) % day
            for _ in 0..<10 {
                let weekday = ((start / day) + 4) % 7 // 0 = Sunday
                if weekday != 0 && weekday != 6 {
                    let open = start + 13 * 3600 + 1800
                    let close = start == 1_727_827_200 ? start + 17 * 3600 : start + 20 * 3600
                    if seconds < open { return .closed(until: Timestamp(seconds: open)) }
                    if seconds < close { return .open(until: Timestamp(seconds: close)) }
                }
                start += day
            }
            return .closed(until: nil)
        }
    }

    static func time(_ text: String) throws -> Timestamp { try #require(Timestamp(parsing: text)) }

    @Test func dueAtEachCloseSkippingTheWeekendWithTheEarlyClose() throws {
        let schedule = MarketCloseSchedule(market: MarketIdentifier("XNYS"), hours: Weekdays())
        #expect(schedule.description == "on close of XNYS")
        #expect(schedule.nextDue(after: try Self.time("2024-10-01T12:00:00Z")) == (try Self.time("2024-10-01T20:00:00Z")))
        #expect(schedule.nextDue(after: try Self.time("2024-10-01T20:00:00Z")) == (try Self.time("2024-10-02T17:00:00Z")), "the early close")
        #expect(schedule.nextDue(after: try Self.time("2024-10-04T20:00:00Z")) == (try Self.time("2024-10-07T20:00:00Z")), "Friday to Monday")
        #expect(schedule.lastDue(atOrBefore: try Self.time("2024-10-06T12:00:00Z")) == (try Self.time("2024-10-04T20:00:00Z")))
        #expect(schedule.lastDue(atOrBefore: try Self.time("2024-10-02T17:00:00Z")) == (try Self.time("2024-10-02T17:00:00Z")))
    }

    @Test func aMarketThatNeverClosesIsNeverDue() throws {
        let schedule = MarketCloseSchedule(market: .crypto, hours: Weekdays())
        #expect(schedule.nextDue(after: try Self.time("2024-10-01T12:00:00Z")) == Timestamp(milliseconds: .max))
        #expect(schedule.lastDue(atOrBefore: try Self.time("2024-10-01T12:00:00Z")) == nil)
    }
}
