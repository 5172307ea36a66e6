import PriceWatchCore
import Testing

/// Interval starts and aggregation of candles.
@Suite struct CandleBuilderTests {
    static func d(_ text: String) -> ExactDecimal { ExactDecimal(text)! }

    static func candle(_ seconds: Int64, _ open: String, _ high: String, _ low: String, _ close: String,
                       volume: String? = nil, interval: CandleInterval = .oneMinute) -> Candle {
        Candle(time: Timestamp(seconds: seconds), interval: interval, open: d(open), high: d(high), low: d(low),
               close: d(close), volume: volume.map(d))
    }

    @Test func startsAreAlignedToTheEpoch() {
        let time = Timestamp(milliseconds: 1_727_875_859_999) // 2024-10-02T13:30:59.999Z
        #expect(CandleBuilder.start(of: time, interval: .oneMinute) == Timestamp(seconds: 1_727_875_800))
        #expect(CandleBuilder.start(of: time, interval: .fiveMinutes) == Timestamp(seconds: 1_727_875_800))
        #expect(CandleBuilder.start(of: time, interval: .oneHour) == Timestamp(seconds: 1_727_874_000))
        #expect(CandleBuilder.start(of: time, interval: .oneDay) == Timestamp(seconds: 1_727_827_200))
        // Before the epoch, the start is still the floor.
        #expect(CandleBuilder.start(of: Timestamp(milliseconds: -1), interval: .oneMinute) == Timestamp(seconds: -60))
    }

    @Test func aggregationTakesFirstOpenLastCloseExtremesAndSummedVolume() {
        let parts = [
            Self.candle(1_727_875_860, "10", "12", "9", "11", volume: "5"),
            Self.candle(1_727_875_800, "8", "10", "7.5", "10", volume: "1"),
            Self.candle(1_727_876_100, "20", "21", "19", "20.5", volume: "2"),
        ]
        let merged = CandleBuilder.aggregate(parts, to: .fiveMinutes)
        #expect(merged == [
            Self.candle(1_727_875_800, "8", "12", "7.5", "11", volume: "6", interval: .fiveMinutes),
            Self.candle(1_727_876_100, "20", "21", "19", "20.5", volume: "2", interval: .fiveMinutes),
        ])
    }

    @Test func volumeIsUnknownWhenAnyPartLacksIt() {
        let merged = CandleBuilder.aggregate([Self.candle(0, "1", "1", "1", "1", volume: "3"), Self.candle(60, "1", "1", "1", "1")],
                                             to: .oneHour)
        #expect(merged.count == 1)
        #expect(merged.first?.volume == nil)
    }

    @Test func inconsistentCandlesAreNotPrices() {
        #expect(CandleBuilder.isConsistent(Self.candle(0, "10", "12", "9", "11")))
        #expect(!CandleBuilder.isConsistent(Self.candle(0, "10", "9", "12", "11")))   // high below low
        #expect(!CandleBuilder.isConsistent(Self.candle(0, "13", "12", "9", "11")))   // open above high
        #expect(!CandleBuilder.isConsistent(Self.candle(0, "10", "12", "9", "8")))    // close below low
        #expect(!CandleBuilder.isConsistent(Self.candle(0, "0", "0", "0", "0")))
    }
}
