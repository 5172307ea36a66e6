import Foundation
import PriceWatchCore
import PriceWatchHTTP
import PriceWatchPresentation

/// `pricewatch-bench page-render [ROUNDS]`: a component mode (the pages' rendering, not the
/// daemon serving them). Renders, ROUNDS times each (default 50), the symbol page with a day
/// of one-minute prices (390) and with five years of daily closes (1,260) plus that day, and
/// the dashboard with 1,000 symbols of 78 five-minute prices; prints each page's median and
/// 90th-percentile render time and its size. Targets (issue 26): the symbol page at five years
/// under 50 ms and under 200 KB (it is sent as rendered), the dashboard at 1,000 symbols
/// under 100 ms. Exits 1 when a page lacks its chart (the rendering is checked, not only timed).
enum PageRenderBenchmark {
    static let start: Int64 = 1_727_875_800_000 // 2024-10-02 13:30 UTC

    static func point(_ millisecondsAfterStart: Int64, _ price: Double) -> HistoryPoint {
        HistoryPoint(time: Timestamp(milliseconds: start + millisecondsAfterStart), price: ExactDecimal(scaled: Int64(price * 100_000_000)))
    }

    static func run(rounds: Int) -> Int32 {
        var random = BenchmarkData.SplitMix64(state: 26)
        var price = 220.0
        let day = (0..<390).map { minute -> HistoryPoint in
            price *= 1 + (random.unit() - 0.5) * 0.002
            return point(Int64(minute) * 60_000, price)
        }
        price = 120.0
        let years = (0..<1_260).map { index -> HistoryPoint in
            price *= 1 + (random.unit() - 0.5) * 0.03
            return point(Int64(index - 1_260) * 86_400_000 * 7 / 5, price)
        }
        let levels = [ChartLevel(role: .threshold, price: ExactDecimal(scaled: 225 * 100_000_000), label: "aapl-above-225"),
                      ChartLevel(role: .threshold, price: ExactDecimal(scaled: 215 * 100_000_000), label: "aapl-below-215")]
        let symbol = DashboardSnapshot.Symbol(symbol: "AAPL", provider: "yahoo", lastPrice: day.last,
                                              previousClose: ExactDecimal(scaled: 221 * 100_000_000), market: .open(until: Timestamp(milliseconds: start + 400 * 60_000)),
                                              dayPoints: day, marketName: "XNYS", marketTimeZone: "America/New_York",
                                              currency: "USD", levels: levels)
        let rules = levels.map { RuleStatus(rule: $0.label, symbol: "AAPL", provider: "yahoo", condition: "above 225", state: .armed,
                                            lastPrice: day.last, lastAlert: nil) }
        let snapshot = DashboardSnapshot(symbols: [symbol], rules: rules, now: Timestamp(milliseconds: start + 390 * 60_000))
        let history = DashboardHistory.read(points: years + day.suffix(1), startingClose: years.first?.price,
                                            source: "stored history", note: nil)
        let live = LiveQuotes()

        var watchlist = DashboardSnapshot(now: snapshot.now)
        for index in 0..<1_000 {
            let points = stride(from: 0, to: 390, by: 5).map { day[$0] }
            watchlist.symbols.append(.init(symbol: "SYM\(index)", provider: "yahoo", lastPrice: points.last,
                                           previousClose: ExactDecimal(scaled: 221 * 100_000_000), market: .open(until: Timestamp(milliseconds: start + 400 * 60_000)),
                                           dayPoints: points, marketName: "XNYS"))
        }

        var status: Int32 = 0
        func measure(_ name: String, target: String, sizeTarget: Int?, _ render: () -> String?) {
            var times: [Double] = []
            var size = 0
            var page = ""
            for _ in 0..<rounds {
                let begin = ContinuousClock.now
                page = render() ?? ""
                let elapsed = begin.duration(to: .now)
                times.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
                size = page.utf8.count
            }
            times.sort()
            let median = times[times.count / 2], p90 = times[min(times.count - 1, times.count * 9 / 10)]
            let padded = name.count < 44 ? name + String(repeating: " ", count: 44 - name.count) : name
            print("  " + padded + String(format: " median %6.2f ms, p90 %6.2f ms, %7.1f KB", median, p90, Double(size) / 1024)
                  + "   target \(target)")
            if !page.contains("<svg") {
                print("  MISMATCH: \(name) has no chart")
                status = 1
            }
            if let sizeTarget, size > sizeTarget { print("  over the size target: \(size) bytes") }
        }
        print("page rendering (component mode), \(rounds) rounds each, \(ProcessInfo.processInfo.activeProcessorCount) cores")
        measure("symbol page, 1D (390 one-minute prices)", target: "-", sizeTarget: nil) {
            SymbolPage.page("AAPL", snapshot: snapshot, live: live)
        }
        measure("symbol page, 5Y (1,260 daily closes)", target: "under 50 ms, 200 KB", sizeTarget: 200 * 1024) {
            SymbolPage.page("AAPL", snapshot: snapshot, live: live, range: .fiveYears, history: history)
        }
        measure("dashboard, 1,000 symbols x 78 prices", target: "under 100 ms", sizeTarget: nil) {
            DashboardPage.page(watchlist, live: live)
        }
        return status
    }
}
