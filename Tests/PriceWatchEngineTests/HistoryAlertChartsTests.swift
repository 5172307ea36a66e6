import Foundation
@testable import PriceWatchApp
import PriceWatchCore
import PriceWatchStore
import Testing

/// The daemon's alert charts: drawn from the recorded history once it is attached, with the
/// threshold of the rule's condition; nothing to draw without history.
@Suite struct HistoryAlertChartsTests {
    typealias F = EngineFixtures

    static func alert(condition: String, at seconds: Int64) -> Alert {
        Alert(id: "a", rule: "r", symbol: "AAPL", provider: "feed", condition: condition, price: F.decimal("226"), currency: "USD",
              time: Timestamp(seconds: seconds), base: nil, change: nil, direction: nil, message: "m")
    }

    @Test func aChartComesFromTheRecordedHistory() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let start: Int64 = 1_727_875_800
        try await store.recordQuotes((0..<30).map { F.quote("AAPL", "\(220 + $0 % 7)", at: start + Int64($0) * 300) })
        let charts = HistoryAlertCharts()
        let alert = Self.alert(condition: "above 225.5", at: start + 29 * 300)
        #expect(await charts.chart(for: alert) == nil, "no history attached yet")
        charts.attach(store)
        let chart = try #require(await charts.chart(for: alert))
        #expect(chart.filename == "chart-AAPL.png" && chart.contentType == "image/png")
        #expect(chart.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
        #expect(await charts.chart(for: Self.alert(condition: "above 225.5", at: start - 86_400 * 3)) == nil, "no prices that day")
    }

    @Test func theThresholdComesFromTheCondition() {
        #expect(HistoryAlertCharts.threshold(of: Self.alert(condition: "above 225.5", at: 0))?.price == F.decimal("225.5"))
        // The chart writes the price after the label: the label is the condition's word only.
        let crosses = HistoryAlertCharts.threshold(of: Self.alert(condition: "crosses 224.5", at: 0))
        #expect(crosses?.label == "crosses" && crosses?.price == F.decimal("224.5"))
        #expect(HistoryAlertCharts.threshold(of: Self.alert(condition: "rise 1% from previous close", at: 0)) == nil)
    }

    @Test func aPercentAlertShowsItsBaseAndThePercentLevel() {
        var fall = Self.alert(condition: "fall 1% from previous close", at: 0)
        fall.base = F.decimal("230")
        let levels = HistoryAlertCharts.levels(of: fall)
        #expect(levels.map(\.label) == ["prev close", "-1%"])
        #expect(levels.map(\.price) == [F.decimal("230"), F.decimal("227.7")])
        #expect(levels.first?.role == .previousClose && levels.last?.role == .threshold)
        var move = Self.alert(condition: "move 5% in 1h", at: 0)
        move.base = F.decimal("100")
        #expect(HistoryAlertCharts.levels(of: move).map(\.label) == ["base", "+5%", "-5%"])
        #expect(HistoryAlertCharts.levels(of: move).map(\.price) == [F.decimal("100"), F.decimal("105"), F.decimal("95")])
        #expect(HistoryAlertCharts.levels(of: Self.alert(condition: "fall 1% from previous close", at: 0)).isEmpty,
                "no base known: no levels, never a guess")
        #expect(HistoryAlertCharts.levels(of: Self.alert(condition: "above 225.5", at: 0)).map(\.label) == ["above"])
    }

    @Test func aTechnicalAlertDrawsItsBarsAndTheSeriesThatBelongOnPrices() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let start: Int64 = 1_727_875_800
        // A day of minute quotes: 390 quotes, 26 bars of 15 minutes.
        try await store.recordQuotes((0..<390).map { F.quote("AAPL", "\(200 + ($0 / 15) % 9)", at: start + Int64($0) * 60) })
        var alert = Self.alert(condition: "sma(3) crosses sma(8) on 15m bars", at: start + 389 * 60)
        alert.series = SeriesReading(timeframe: "15m", of: "sma(3)", ofValue: F.decimal("204"), level: "sma(8)", levelValue: F.decimal("203"))
        let charts = HistoryAlertCharts()
        let m15 = try #require(Timeframe("15m"))
        func chart(_ alert: Alert) async throws -> ChartDescription? {
            guard let series = alert.series else { return nil }
            return await charts.technicalChart(for: alert, series: series, timeframe: m15, reader: store)
        }
        let description = try #require(try await chart(alert))
        #expect(description.series.count == 26)
        #expect(description.overlays.map(\.label) == ["sma(3)", "sma(8)"])
        #expect(description.overlays.map(\.points.count) == [24, 19], "each series from its first defined bar")
        #expect(description.levels.isEmpty)
        // An oscillator is not drawn over prices; a number on the price is a threshold.
        alert.series = SeriesReading(timeframe: "15m", of: "rsi(14)", ofValue: F.decimal("28"), level: "30", levelValue: F.decimal("30"))
        let rsi = try #require(try await chart(alert))
        #expect(rsi.overlays.isEmpty && rsi.levels.isEmpty)
        #expect(rsi.panels.map(\.title) == ["rsi(14)"])
        #expect(rsi.panels.first?.levels == [30, 70])
        #expect(rsi.height == 420, "the panel adds to the picture's height")
        alert.series = SeriesReading(timeframe: "15m", of: "macd(3,6,4)", ofValue: F.decimal("0.1"), level: "macd_signal(3,6,4)",
                                     levelValue: F.decimal("0.05"))
        let macd = try #require(try await chart(alert))
        #expect(macd.panels.map(\.title) == ["macd(3,6,4), macd_signal(3,6,4)"])
        #expect(macd.panels.first?.lines.count == 2)
        let drawing = ChartLayout.drawing(for: macd)
        #expect(drawing.shapes.contains { if case .text("macd(3,6,4), macd_signal(3,6,4)", _, _, _, _, _) = $0 { true } else { false } })
        charts.attach(store)
        let macdPNG = try #require(await charts.chart(for: alert))
        #expect(macdPNG.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        // To look at it: PRICEWATCH_SAVE_CHARTS=DIRECTORY swift test --filter HistoryAlertChartsTests
        if let directory = ProcessInfo.processInfo.environment["PRICEWATCH_SAVE_CHARTS"] {
            try Data(macdPNG.bytes).write(to: URL(fileURLWithPath: directory + "/macd-alert.png"))
        }
        alert.series = SeriesReading(timeframe: "15m", of: "price", ofValue: F.decimal("204"), level: "203", levelValue: F.decimal("203"))
        let level = try #require(try await chart(alert))
        #expect(level.levels.map(\.label) == ["203"])
        let png = try #require(await charts.chart(for: alert))
        #expect(png.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }
}
