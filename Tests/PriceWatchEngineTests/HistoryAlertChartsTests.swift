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
        #expect(HistoryAlertCharts.threshold(of: Self.alert(condition: "crosses 224.5", at: 0))?.label == "crosses 224.5")
        #expect(HistoryAlertCharts.threshold(of: Self.alert(condition: "rise 1% from previous close", at: 0)) == nil)
    }
}
