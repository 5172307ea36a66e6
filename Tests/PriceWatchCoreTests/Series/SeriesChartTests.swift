import PriceWatchCore
import Testing

/// A technical rule's series on a price chart: each overlay a line in a colour of its own,
/// labelled at its end, the labels apart, the price range widened to hold them.
@Suite struct SeriesChartTests {
    static func points(_ values: [Double]) -> [ChartPoint] {
        values.enumerated().map { index, value in
            ChartPoint(time: Timestamp(seconds: 1_727_875_800 + Int64(index) * 86_400), price: ExactDecimal(fast: value) ?? .zero)
        }
    }

    @Test func overlaysAreColouredLinesWithLabelsApart() throws {
        var chart = ChartDescription(title: "GOOG · 1d bars", series: Self.points((0..<40).map { 100 + Double($0) }))
        // Two averages ending a hair apart, and a band far above every price.
        chart.overlays = [
            ChartOverlay(label: "sma(5)", points: Self.points((0..<40).map { 98 + Double($0) })),
            ChartOverlay(label: "sma(10)", points: Self.points((0..<40).map { 98.1 + Double($0) })),
            ChartOverlay(label: "bb_upper(20,2)", points: Self.points((0..<40).map { 200 + Double($0) })),
        ]
        let shapes = ChartLayout.drawing(for: chart).shapes
        for (index, overlay) in chart.overlays.enumerated() {
            let color = ChartPalette.overlayColors[index]
            #expect(shapes.contains { if case .polyline(let points, color, _, _) = $0 { points.count == overlay.points.count } else { false } },
                    "\(overlay.label) is drawn in its colour")
        }
        let labels = shapes.compactMap { shape -> (String, Double)? in
            if case .text(let text, let at, _, _, _, _) = shape, text.contains("(") { return (text, at.y) }
            return nil
        }
        #expect(labels.map(\.0) == ["sma(5)", "sma(10)", "bb_upper(20,2)"])
        #expect(abs(labels[0].1 - labels[1].1) >= 11, "labels of lines ending together do not overlap: \(labels)")
        // The band is inside the plot: the range grew to hold it.
        let drawing = ChartLayout.drawing(for: chart)
        #expect(labels.allSatisfy { $0.1 > 0 && $0.1 < Double(drawing.height) })
        #expect(Set(ChartPalette.overlayColors).count == 4 && !ChartPalette.overlayColors.contains(ChartTheme.light.palette.line))
    }

    @Test func seriesValuesLineUpWithTheirBars() throws {
        let bars = (0..<6).map { BarHistory.Bar(start: Int64($0), time: Timestamp(seconds: Int64($0)), close: ExactDecimal(exactly: $0 + 1) ?? .zero) }
        let values = SeriesSnapshot.values(of: try SeriesSpec(parsing: "sma(3)"), over: bars)
        #expect(values == [nil, nil, ExactDecimal(exactly: 2), ExactDecimal(exactly: 3), ExactDecimal(exactly: 4), ExactDecimal(exactly: 5)])
        let snapshot = SeriesSnapshot(condition: SeriesCondition(timeframe: .oneDay, of: try SeriesSpec(parsing: "sma(3)"),
                                                                 level: try SeriesSpec(parsing: "sma(10)")), bars: bars)
        #expect(snapshot.isWarmingUp && snapshot.text == "warming up: 6 of 10 bars")
    }
}
