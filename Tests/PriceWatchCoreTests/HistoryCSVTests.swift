import Foundation
import PriceWatchCore
import Testing

/// `pricewatch history --format csv`: the backtest CSV, with the previous close per day.
@Suite struct HistoryCSVTests {
    @Test func previousCloseIsTheLastCloseOfTheDayBeforeInTheMarketsZone() throws {
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        // 2024-10-01 19:59 UTC and 2024-10-02 13:30 / 19:59 UTC (New York: 15:59, 09:30, 15:59).
        let candles = [
            CandleBuilderTests.candle(1_727_812_740, "100", "101", "99", "100.5"),
            CandleBuilderTests.candle(1_727_875_800, "101", "102", "100", "101.25"),
            CandleBuilderTests.candle(1_727_899_140, "103", "104", "102", "103"),
        ]
        let rows = HistoryCSV.rows(symbol: "AAPL", candles: candles, currency: "USD",
                                   firstPreviousClose: ExactDecimal("99.9"), timeZone: zone)
        #expect(rows == [
            "symbol,time,price,previous_close,currency",
            "AAPL,2024-10-01T19:59:00Z,100.50,99.90,USD",
            "AAPL,2024-10-02T13:30:00Z,101.25,100.50,USD",
            "AAPL,2024-10-02T19:59:00Z,103.00,100.50,USD",
        ])
    }

    @Test func dailyCandlesTakeThePreviousCandlesCloseAndUnknownIsEmpty() {
        let candles = [
            CandleBuilderTests.candle(1_727_827_200, "1", "2", "1", "2", interval: .oneDay),
            CandleBuilderTests.candle(1_727_913_600, "2", "3", "2", "3", interval: .oneDay),
        ]
        let rows = HistoryCSV.rows(symbol: "X,Y", candles: candles, currency: nil, firstPreviousClose: nil,
                                   timeZone: TimeZone(identifier: "UTC")!)
        #expect(rows == [
            "symbol,time,price,previous_close,currency",
            "\"X,Y\",2024-10-02T00:00:00Z,2.00,,",
            "\"X,Y\",2024-10-03T00:00:00Z,3.00,2.00,",
        ])
    }
}
