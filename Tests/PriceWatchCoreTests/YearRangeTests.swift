import PriceWatchCore
import Testing

/// The 52-week range: the lowest low and highest high of the candles within 52 weeks of now,
/// and where the history starts when it covers less, never more than the candles say.
struct YearRangeTests {
    static let day: Int64 = 86_400_000
    static let now = Timestamp(milliseconds: 1_800_000_000_000)

    /// A daily candle `daysAgo` days before now, its low and high in whole units.
    static func candle(daysAgo: Int64, low: Int64, high: Int64) -> Candle {
        Candle(time: Timestamp(milliseconds: now.milliseconds - daysAgo * day), interval: .oneDay,
               open: price(low), high: price(high), low: price(low), close: price(high))
    }

    static func price(_ units: Int64) -> ExactDecimal { ExactDecimal(scaled: units * 100_000_000) }

    @Test func aYearOfCandlesGivesTheLowestLowAndHighestHighOfTheLast52Weeks() throws {
        // 366 days of history: the two oldest days fall before the 52 weeks (364 days) and
        // only say the history reaches back that far.
        var candles = (0...366).map { Self.candle(daysAgo: Int64(366 - $0), low: 150, high: 160) }
        candles[0] = Self.candle(daysAgo: 366, low: 1, high: 999)
        candles[100] = Self.candle(daysAgo: 266, low: 120, high: 155)
        candles[300] = Self.candle(daysAgo: 66, low: 151, high: 199)
        let range = try #require(YearRange(candles: candles, now: Self.now))
        #expect(range == YearRange(low: Self.price(120), high: Self.price(199)), "\(range)")
        #expect(range.knownSince == nil, "the history covers the 52 weeks")
    }

    @Test func aHistoryStartingInsideTheWeeksSaysWhere() throws {
        let candles = (0...40).map { Self.candle(daysAgo: Int64(40 - $0), low: 100 + Int64($0), high: 110 + Int64($0)) }
        let range = try #require(YearRange(candles: candles, now: Self.now))
        #expect(range.low == Self.price(100) && range.high == Self.price(150))
        #expect(range.knownSince == candles[0].time, "40 days known, not 52 weeks")
    }

    @Test func aFirstCandleWithinFourDaysOfTheWindowsStartCoversIt() throws {
        // The window starts on a Saturday: Monday's candle is the first of a full year.
        let covered = [Self.candle(daysAgo: 361, low: 10, high: 20), Self.candle(daysAgo: 1, low: 15, high: 25)]
        #expect(try #require(YearRange(candles: covered, now: Self.now)).knownSince == nil)
        let short = [Self.candle(daysAgo: 359, low: 10, high: 20), Self.candle(daysAgo: 1, low: 15, high: 25)]
        #expect(try #require(YearRange(candles: short, now: Self.now)).knownSince == short[0].time, "five days missing are said")
    }

    @Test func nothingWithinTheWeeksIsNoRange() {
        #expect(YearRange(candles: [], now: Self.now) == nil)
        #expect(YearRange(candles: [Self.candle(daysAgo: 400, low: 1, high: 2)], now: Self.now) == nil,
                "a year-old price is not this year's range")
        #expect(YearRange(candles: [Self.candle(daysAgo: -1, low: 1, high: 2)], now: Self.now) == nil, "nor a future one")
    }

    @Test func theCandleThatStraddlesTheWindowsStartCounts() throws {
        // Its day ends inside the window: its prices were traded within the 52 weeks.
        let straddling = Candle(time: Timestamp(milliseconds: Self.now.milliseconds - YearRange.window - Self.day / 2), interval: .oneDay,
                                open: Self.price(50), high: Self.price(60), low: Self.price(40), close: Self.price(55))
        let range = try #require(YearRange(candles: [straddling, Self.candle(daysAgo: 1, low: 45, high: 50)], now: Self.now))
        #expect(range == YearRange(low: Self.price(40), high: Self.price(60)))
    }
}
