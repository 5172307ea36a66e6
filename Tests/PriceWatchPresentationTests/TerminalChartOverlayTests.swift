import Foundation
import PriceWatchCore
import PriceWatchPresentation
import Testing

/// The terminal chart with a series beside the closes (an overlay) and under them (a panel
/// with its levels), as `pricewatch history` draws a technical rule's series.
@Suite struct TerminalChartOverlayTests {
    @Test func terminalChartDrawsAnOverlayBesideTheClosesAndLabelsIt() throws {
        // Closes rising 100 to 119, and a line at 90 to 109 (well under them).
        let candles = (0..<20).map { index in
            let price = ExactDecimal(fast: 100 + Double(index)) ?? .zero
            return Candle(time: Timestamp(milliseconds: Int64(index) * 60_000), interval: .oneMinute,
                          open: price, high: price, low: price, close: price)
        }
        let overlay = TerminalChart.Overlay(label: "sma(3)", values: (0..<20).map { $0 < 2 ? nil : ExactDecimal(fast: 90 + Double($0)) })
        let utc = try #require(TimeZone(identifier: "UTC"))
        let plain = TerminalChart(candles: candles, width: 60, height: 8, timeZone: utc).render()
        let lines = TerminalChart(candles: candles, width: 60, height: 8, timeZone: utc, overlays: [overlay]).render()
        // The scale reaches down to the overlay's lowest value, and its label is on the right.
        #expect(lines.first { $0.contains("┤") && $0.hasPrefix(" 92.00") || $0.hasPrefix("92.00") } != nil, "\(lines)")
        #expect(lines.contains { $0.hasSuffix("· sma(3)") }, "\(lines)")
        let dots = { (rows: [String]) in rows.prefix(8).map { $0.unicodeScalars.filter { (0x2801...0x28FF).contains($0.value) }.count } }
        #expect(dots(lines).reduce(0, +) > dots(plain).reduce(0, +), "the overlay added no cells")
        // A panel under a chart: no time axis, every level drawn however far.
        let panel = TerminalChart(candles: candles, width: 60, height: 4, timeZone: utc,
                                  levels: [.init(label: "30.00", price: ExactDecimal(fast: 30) ?? .zero)], showsTimeAxis: false, drawsEveryLevel: true).render()
        #expect(panel.count == 4, "\(panel)")
        #expect(panel.last?.contains("30.00") == true, "\(panel)")
    }
}
