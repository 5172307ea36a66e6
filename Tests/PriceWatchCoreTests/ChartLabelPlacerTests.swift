@testable import PriceWatchCore
import Testing

/// Chart labels stay inside the image and off each other: an alert at the chart's last point,
/// levels a cent apart, overlays ending on the same price (the clipped `btc-belo` and the
/// labels drawn over each other of the alert emails).
struct ChartLabelPlacerTests {
    static let start: Int64 = 1_727_875_800_000
    static func point(_ minute: Int64, _ price: String) -> ChartPoint {
        ChartPoint(time: Timestamp(milliseconds: start + minute * 60_000), price: ExactDecimal(price) ?? .zero)
    }

    /// Every text of `drawing` with its estimated box.
    static func labels(_ drawing: ChartDrawing) -> [(String, ChartLabelPlacer.Box)] {
        drawing.shapes.compactMap { shape in
            guard case .text(let text, let at, let size, _, let anchor, let bold) = shape else { return nil }
            return (text, ChartLabelPlacer.box(text, at: at, size: size, anchor: anchor, bold: bold))
        }
    }

    static func inside(_ box: ChartLabelPlacer.Box, _ drawing: ChartDrawing) -> Bool {
        box.left >= 0 && box.right <= Double(drawing.width) && box.top >= 0 && box.bottom <= Double(drawing.height)
    }

    @Test func anAlertAtTheLastPointKeepsItsWholeLabelInsideTheImage() {
        let series = (0..<60).map { Self.point($0, "\(89_500 - $0 * 10)") }
        let chart = ChartDescription(title: "BTC-USD", series: series,
                                     levels: [ChartLevel(role: .threshold, price: ExactDecimal("89000") ?? .zero, label: "below")],
                                     markers: [ChartMarker(time: series[59].time, price: series[59].price, label: "btc-below-89000")])
        let drawing = ChartLayout.drawing(for: chart)
        let labels = Self.labels(drawing)
        let marker = labels.first { $0.0 == "btc-below-89000" }
        #expect(marker != nil, "the marker's label is drawn whole")
        for (text, box) in labels { #expect(Self.inside(box, drawing), "\(text) leaves the image: \(box)") }
        #expect(labels.contains { $0.0 == "below 89000" }, "the level's price is written once: \(labels.map(\.0))")
    }

    @Test func labelsOfLevelsAndOverlaysAtTheSamePriceDoNotOverlap() {
        let series = (0..<100).map { Self.point($0, "\(100 + $0 % 7)") }
        var chart = ChartDescription(title: "AAPL USD", series: series, levels: [
            ChartLevel(role: .previousClose, price: ExactDecimal("103") ?? .zero, label: "prev close"),
            ChartLevel(role: .threshold, price: ExactDecimal("103.01") ?? .zero, label: "aapl-above-103.01"),
            ChartLevel(role: .threshold, price: ExactDecimal("103.02") ?? .zero, label: "aapl-crosses-103.02"),
        ], markers: [ChartMarker(time: series[99].time, price: ExactDecimal("103") ?? .zero, label: "aapl-above-103.01")])
        chart.overlays = ["sma(20)", "ema(20)", "bb_upper(20,2)"].map { label in
            ChartOverlay(label: label, points: series.map { ChartPoint(time: $0.time, price: ExactDecimal("103") ?? .zero) })
        }
        let drawing = ChartLayout.drawing(for: chart)
        let labels = Self.labels(drawing)
        #expect(labels.count >= 1 + 3 + 1 + 3, "title, levels, marker, overlays: \(labels.map(\.0))")
        // The price axis' labels sit left of the plot, the time axis' below it: the placed
        // labels (right of the axis labels) must not overlap each other or them.
        for (index, first) in labels.enumerated() {
            #expect(Self.inside(first.1, drawing), "\(first.0) leaves the image")
            for second in labels[(index + 1)...] where first.1.overlaps(second.1) {
                Issue.record("\(first.0) overlaps \(second.0): \(first.1) and \(second.1)")
            }
        }
    }

    @Test func theEdgesAndTakenRowsMoveALabel() {
        var placer = ChartLabelPlacer(width: 300, height: 100)
        let right = placer.place("a-long-rule-name", at: CanvasPoint(x: 295, y: 50), size: 11, anchor: .middle, bold: true)
        let box = ChartLabelPlacer.box("a-long-rule-name", at: right, size: 11, anchor: .middle, bold: true)
        #expect(box.right <= 298 && box.left >= 2, "moved left inside the image: \(box)")
        let again = placer.place("a-long-rule-name", at: CanvasPoint(x: 295, y: 50), size: 11, anchor: .middle, bold: true)
        #expect(again.y != right.y, "the same place taken: another row")
        let top = placer.place("top", at: CanvasPoint(x: 10, y: -20), size: 11, anchor: .start, bold: false)
        #expect(ChartLabelPlacer.box("top", at: top, size: 11, anchor: .start, bold: false).top >= 0)
    }
}
