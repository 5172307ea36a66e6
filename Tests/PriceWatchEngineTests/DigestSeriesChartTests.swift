import Foundation
import PriceWatchCore
import PriceWatchServices
import PriceWatchStore
import PriceWatchTestKit
import Synchronization
import Testing

/// A digest's chart of a top mover draws the series of the symbol's technical rules, computed
/// on the rule's own bars from the recorded history (warm-up before the period included), over
/// a real SQLite store.
@Suite struct DigestSeriesChartTests {
    typealias F = EngineFixtures

    /// Keeps what it was asked to draw: the digest's chart descriptions.
    final class RecordingRenderer: ChartRenderer {
        let charts = Mutex<[ChartDescription]>([])
        func render(_ chart: ChartDescription, as format: ChartImageFormat) async throws -> [UInt8] {
            charts.withLock { $0.append(chart) }
            return [0x89, 0x50, 0x4E, 0x47]
        }
    }

    @Test func aMoversChartDrawsItsRulesSeries() async throws {
        let store = try SQLiteAlertStore.open(path: try F.temporaryDirectory() + "/state.db")
        defer { try? store.close() }
        // 2024-10-02 00:00 UTC; a day of five-minute quotes before it (the warm-up) and in it.
        let due = Timestamp(seconds: 1_727_913_600)
        let quotes = (0..<576).map { step in
            F.quote("AAPL", "\(100 + step % 12 + step / 48)", at: due.seconds - 2 * 86_400 + Int64(step) * 300)
        }
        try await store.recordQuotes(quotes)
        var rules = [F.rule("plain", .above(F.decimal("1000")))]
        var average = F.rule("aapl-over-sma", .above(F.decimal("0")))
        average.series = SeriesCondition(timeframe: try #require(Timeframe("1h")), of: .price, level: try SeriesSpec(parsing: "sma(4)"))
        var oscillator = F.rule("aapl-rsi", .below(F.decimal("30")))
        oscillator.series = SeriesCondition(timeframe: try #require(Timeframe("5m")), of: try SeriesSpec(parsing: "rsi(14)"))
        rules += [average, oscillator]
        let settings = DigestSettings(name: "daily", schedule: try CalendarSchedule(parsing: "daily 00:00 UTC"),
                                      period: .day, notify: ["recorder"], charts: true)
        let renderer = RecordingRenderer()
        let builder = DigestBuilder(history: store, alerts: store, marketHours: AlwaysOpenMarkets(), renderer: renderer, logger: F.logger)
        let digest = try await builder.digest(settings, symbols: ["AAPL"], due: due, rules: rules)
        #expect(digest.charts.count == 1)
        let chart = try #require(renderer.charts.withLock { $0.first })
        // The hourly average over the five-minute prices, labelled with its timeframe, defined
        // from the period's first candle on (the day before warmed it up).
        #expect(chart.overlays.map(\.label) == ["sma(4) 1h"])
        #expect(chart.overlays.first?.points.count == 24, "\(chart.overlays.first?.points.count ?? 0)")
        #expect(chart.overlays.first?.points.allSatisfy { $0.time >= Timestamp(seconds: due.seconds - 86_400) } == true)
        // RSI in a panel with its levels and the rule's 30; the chart grows to hold it.
        #expect(chart.panels.map(\.title) == ["rsi(14)"])
        #expect(chart.panels.first?.levels == [30, 70])
        #expect((chart.panels.first?.lines.first?.points.count ?? 0) >= 280)
        let plain = ChartDescription(title: "AAPL", series: [])
        #expect(chart.height == plain.height + 100)
    }
}
