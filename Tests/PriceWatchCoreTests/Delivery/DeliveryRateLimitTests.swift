import PriceWatchCore
import Testing

/// A sink's `rate_limit`: how it is written, and how much room its window has.
@Suite struct DeliveryRateLimitTests {
    @Test(arguments: [
        ("20/min", 20, Int64(60_000), "20/min"),
        ("1/s", 1, 1_000, "1/s"),
        ("100/h", 100, 3_600_000, "100/h"),
        ("5/d", 5, 86_400_000, "5/d"),
        ("10/5min", 10, 300_000, "10/5min"),
        ("3/90s", 3, 90_000, "3/90s"),
        ("2/second", 2, 1_000, "2/s"),
    ])
    func ratesAreReadAndWrittenBack(text: String, attempts: Int, window: Int64, written: String) throws {
        let rate = try #require(DeliveryRateLimit(text), "\(text)")
        #expect(rate.attempts == attempts)
        #expect(rate.windowMilliseconds == window)
        #expect(rate.description == written)
    }

    @Test(arguments: ["", "20", "20/", "/min", "0/min", "-1/min", "20/minute/2", "20/fortnight", "20/0min", "1/500ms", "x/min", " 20/min", "20 /min"])
    func anythingElseIsNotARate(text: String) {
        #expect(DeliveryRateLimit(text) == nil, "\(text)")
    }

    @Test func theWindowCountsTheStartsInsideIt() throws {
        let rate = try #require(DeliveryRateLimit("3/min"))
        let now = Timestamp(seconds: 1_000)
        let starts = [Timestamp(seconds: 900), Timestamp(seconds: 941), Timestamp(seconds: 950), Timestamp(seconds: 999)]
        // 900 left the window (it starts after 940); three remain.
        #expect(rate.room(now: now, recentStarts: starts) == 0)
        #expect(rate.nextOpening(now: now, recentStarts: starts) == Timestamp(seconds: 1_001), "941 leaves at 1,001")
        #expect(rate.room(now: Timestamp(seconds: 1_001), recentStarts: starts) == 1)
        #expect(rate.room(now: now, recentStarts: []) == 3)
        #expect(rate.nextOpening(now: now, recentStarts: []) == nil)
        #expect(rate.nextOpening(now: now, recentStarts: [], starting: 3) == Timestamp(seconds: 1_060),
                "three started now fill it until a minute from now")
        #expect(rate.nextOpening(now: now, recentStarts: [Timestamp(seconds: 990)], starting: 2) == Timestamp(seconds: 1_050))
    }
}
