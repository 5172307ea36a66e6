import Foundation
import PriceWatchCore
import Testing

/// The layout decides what a chart shows: ticks in the market's time zone, levels, markers.
@Suite struct ChartLayoutTests {
    func instant(_ text: String) throws -> Timestamp { try #require(Timestamp(parsing: text)) }

    @Test func aSessionInNewYorkHasHourlyTicksOnLocalHours() throws {
        let ticks = ChartLayout.timeTicks(from: try instant("2024-10-02T13:30:00Z").milliseconds,
                                          to: try instant("2024-10-02T19:59:00Z").milliseconds,
                                          in: try #require(TimeZone(identifier: "America/New_York")))
        #expect(ticks.map(\.label) == ["10:00", "11:00", "12:00", "13:00", "14:00", "15:00"])
        let tenOClock = try instant("2024-10-02T14:00:00Z").milliseconds
        #expect(ticks.first?.milliseconds == tenOClock)
    }

    /// Across the end of daylight saving time the ticks stay on local midnight and noon:
    /// the gap that spans the change is 13 hours, the labels never drift to 23:00 or 11:00.
    @Test func ticksStayOnLocalHoursAcrossADSTChange() throws {
        let ticks = ChartLayout.timeTicks(from: try instant("2024-11-02T12:00:00Z").milliseconds,
                                          to: try instant("2024-11-04T12:00:00Z").milliseconds,
                                          in: try #require(TimeZone(identifier: "America/New_York")))
        #expect(ticks.map(\.label) == ["12:00", "00:00", "12:00", "00:00"])
        let expected = try ["2024-11-02T16:00:00Z", "2024-11-03T04:00:00Z", "2024-11-03T17:00:00Z", "2024-11-04T05:00:00Z"]
            .map { try instant($0).milliseconds }
        #expect(ticks.map(\.milliseconds) == expected)
    }

    @Test func tenYearsOfMonthsAreLabelledByYear() throws {
        let ticks = ChartLayout.timeTicks(from: try instant("2000-01-01T00:00:00Z").milliseconds,
                                          to: try instant("2010-03-01T00:00:00Z").milliseconds,
                                          in: try #require(TimeZone(identifier: "UTC")))
        #expect(ticks.map(\.label) == ["2000", "2002", "2004", "2006", "2008", "2010"])
    }

    @Test func levelsMarkersAndBreaksAreDrawnInTheirColours() throws {
        let start = try instant("2024-10-02T13:30:00Z")
        let series = (0..<10).map { ChartPoint(time: Timestamp(seconds: start.seconds + Int64($0) * 60),
                                               price: ExactDecimal(scaled: Int64(100 + $0) * ExactDecimal.unit)) }
        let chart = ChartDescription(
            title: "T", series: series,
            levels: [ChartLevel(role: .threshold, price: ExactDecimal(scaled: 105 * ExactDecimal.unit), label: "above")],
            sessionBreaks: [series[5].time],
            markers: [ChartMarker(time: series[6].time, price: series[6].price, label: "alert")],
            timeZone: "America/New_York", theme: .dark)
        let shapes = ChartLayout.drawing(for: chart).shapes
        let palette = ChartTheme.dark.palette
        #expect(shapes.contains { if case .polyline(let points, palette.line, _, let dash) = $0 { points.count == 10 && dash.isEmpty } else { false } })
        #expect(shapes.contains { if case .polyline(_, palette.threshold, _, let dash) = $0 { !dash.isEmpty } else { false } })
        #expect(shapes.contains { if case .polyline(_, palette.sessionBreak, _, let dash) = $0 { !dash.isEmpty } else { false } })
        #expect(shapes.contains { if case .text("above 105", _, _, palette.threshold, _, _) = $0 { true } else { false } })
        #expect(shapes.contains { if case .circle(_, _, palette.marker, _, _) = $0 { true } else { false } })
        #expect(shapes.contains { if case .text("America/New_York", _, _, _, _, _) = $0 { true } else { false } })
    }

    /// The palette is Okabe-Ito's: the line, threshold and previous-close colours are its.
    @Test func thePaletteIsOkabeIto() {
        let okabeIto: Set<String> = ["#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7"]
        for theme in ChartTheme.allCases {
            let palette = theme.palette
            for color in [palette.line, palette.threshold, palette.previousClose, palette.marker] {
                #expect(okabeIto.contains(color.hex), "\(theme) uses \(color.hex)")
            }
        }
    }
}
