import Foundation
import PriceWatchCore
import Testing

/// What charts draw of technical rules' series (`SeriesChartLines`), and how the terminal chart
/// of `pricewatch history` shows them: averages over the prices, oscillators in panels with
/// their levels, each series once, and values read as steps at finer candles.
@Suite struct SeriesChartLinesTests {
    static func spec(_ text: String) throws -> SeriesSpec { try SeriesSpec(parsing: text) }

    /// Bars one minute apart from t = 0 with these closes.
    static func bars(_ closes: [Double]) -> [BarHistory.Bar] {
        closes.enumerated().map { index, close in
            BarHistory.Bar(start: Int64(index) * 60_000, time: Timestamp(milliseconds: Int64(index) * 60_000),
                           close: ExactDecimal(fast: close) ?? .zero)
        }
    }

    @Test func averagesGoOverThePricesAndOscillatorsInPanels() throws {
        let closes = (0..<40).map { 100 + Double($0 % 7) - Double($0) / 10 }
        let lines = SeriesChartLines(specs: [try Self.spec("sma(5)"), try Self.spec("rsi(14)"), try Self.spec("macd_hist(3,6,2)")],
                                     bars: Self.bars(closes), shownFrom: Timestamp(milliseconds: 10 * 60_000),
                                     ruleLevel: ("rsi(14)", 25))
        #expect(lines.overlays.map(\.label) == ["sma(5)"])
        // Only bars at or after `shownFrom`, where the series is defined: 30 of them.
        #expect(lines.overlays.first?.points.count == 30)
        #expect(lines.overlays.first?.points.first?.time == Timestamp(milliseconds: 10 * 60_000))
        // The sma(5) at bar 10 is the mean of closes 6 to 10.
        let mean = closes[6...10].reduce(0, +) / 5
        #expect(abs((lines.overlays.first?.points.first?.price.doubleValue ?? 0) - mean) < 1e-6)
        #expect(lines.panels.map(\.title) == ["rsi(14)", "macd_hist(3,6,2)"])
        // RSI's reference levels and the rule's number.
        #expect(lines.panels[0].levels == [25, 30, 70])
        #expect(lines.panels[1].histogram.count == 30 && lines.panels[1].lines.isEmpty)
    }

    @Test func theSameSeriesOfTwoRulesIsDrawnOnce() throws {
        let bars = Self.bars((0..<30).map { 50 + Double($0) })
        let first = SeriesChartLines(specs: [.price, try Self.spec("sma(10)")], bars: bars, shownFrom: Timestamp(milliseconds: 0))
        let second = SeriesChartLines(specs: [try Self.spec("sma(10)"), try Self.spec("sma(20)")], bars: bars,
                                      shownFrom: Timestamp(milliseconds: 0))
        let merged = first.merged(with: second)
        #expect(merged.overlays.map(\.label) == ["sma(10)", "sma(20)"])
        #expect(!merged.isEmpty && SeriesChartLines().isEmpty)
        // macd and its signal share one panel.
        let macd = SeriesChartLines(specs: [try Self.spec("macd(3,6,2)"), try Self.spec("macd_signal(3,6,2)")], bars: bars,
                                    shownFrom: Timestamp(milliseconds: 0), suffix: " 1h")
        #expect(macd.panels.count == 1)
        #expect(macd.panels.first?.title == "macd(3,6,2) 1h, macd_signal(3,6,2) 1h")
        #expect(macd.panels.first?.lines.count == 2)
    }

    @Test func valuesAreStepsAtFinerTimes() {
        let ten = ExactDecimal(fast: 10) ?? .zero, twelve = ExactDecimal(fast: 12) ?? .zero
        let points = [ChartPoint(time: Timestamp(milliseconds: 300), price: ten), ChartPoint(time: Timestamp(milliseconds: 600), price: twelve)]
        let times = [100, 300, 400, 599, 600, 900].map { Timestamp(milliseconds: Int64($0)) }
        #expect(SeriesChartLines.values(of: points, at: times) == [nil, ten, ten, ten, twelve, twelve])
    }
}
