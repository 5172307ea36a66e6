import Foundation
import PriceWatchCore
import PriceWatchTestKit

/// `pricewatch-bench market-week [INTERVAL_SECONDS] [BATCH]`: market-aware polling over one
/// simulated week (Monday 2026-11-16 00:00 UTC to the next Monday) of a mixed watchlist, 40
/// New York, 30 Xetra, 20 Tokyo and 10 crypto symbols, with a fixed weekly calendar (regular
/// sessions, Tokyo's lunch break, no holidays). Prints the requests made (batches of BATCH
/// symbols per tick, as a provider sends them) against polling everything, split into weekend
/// and weekdays. Checks the planner's symbol fetches against a count made straight from the
/// calendar (open ticks, plus one tick per closed period) and fails on a mismatch.
enum MarketWeekBenchmark {
    static func run(interval: Int64, batch: Int) throws {
        var symbols: [String] = []
        var markets: [String: MarketIdentifier] = [:]
        for (prefix, market, count) in [("US", "XNYS", 40), ("EU", "XETR", 30), ("JP", "XTKS", 20), ("CC", MarketIdentifier.crypto.rawValue, 10)] {
            for index in 0..<count {
                let symbol = "\(prefix)\(index)"
                symbols.append(symbol)
                markets[symbol] = MarketIdentifier(market)
            }
        }
        let hours = WeeklyMarketHours.sample(symbols: markets)
        guard let start = Timestamp(parsing: "2026-11-16T00:00:00Z"), let weekend = Timestamp(parsing: "2026-11-21T00:00:00Z") else {
            throw BenchmarkFailure("market-week: bad start time")
        }
        let ticks = Int(7 * 86_400 / interval)
        var planner = MarketPollPlanner(symbols: symbols, hours: hours)
        var requests = (weekday: 0, weekend: 0)
        var everything = (weekday: 0, weekend: 0)
        var fetches = 0
        let perTickAll = (symbols.count + batch - 1) / batch
        let cpu = clock()
        for tick in 0..<ticks {
            let now = Timestamp(seconds: start.seconds + Int64(tick) * interval)
            let plan = planner.plan(at: now)
            let made = (plan.fetch.count + batch - 1) / batch
            fetches += plan.fetch.count
            if now < weekend {
                requests.weekday += made
                everything.weekday += perTickAll
            } else {
                requests.weekend += made
                everything.weekend += perTickAll
            }
        }
        let seconds = Double(clock() - cpu) / Double(CLOCKS_PER_SEC)

        // The reference: per market, the ticks it is open plus one per closed period.
        var expected = 0
        let bySymbolCount = Dictionary(grouping: symbols, by: { markets[$0] ?? .crypto }).mapValues(\.count)
        for (market, count) in bySymbolCount {
            var lastClosedUntil: Timestamp?? = nil
            for tick in 0..<ticks {
                let now = Timestamp(seconds: start.seconds + Int64(tick) * interval)
                switch hours.status(of: market, at: now) {
                case .open:
                    expected += count
                    lastClosedUntil = nil
                case .closed(let until):
                    if lastClosedUntil != .some(until) { expected += count }
                    lastClosedUntil = .some(until)
                }
            }
        }
        let total = requests.weekday + requests.weekend, all = everything.weekday + everything.weekend
        func percent(_ part: Int, _ whole: Int) -> String { String(format: "%.1f%%", whole == 0 ? 0 : 100 * Double(whole - part) / Double(whole)) }
        print("market-week: \(symbols.count) symbols (New York 40, Xetra 30, Tokyo 20, crypto 10), every \(interval) s for 7 days, batches of \(batch)")
        print("  requests, market-aware: \(total); polling everything: \(all); saved \(percent(total, all))")
        print("  weekdays (Mon-Fri, nights and lunch breaks): \(requests.weekday) vs \(everything.weekday), saved \(percent(requests.weekday, everything.weekday))")
        print("  weekend (Sat-Sun): \(requests.weekend) vs \(everything.weekend), saved \(percent(requests.weekend, everything.weekend))")
        print("  symbol fetches: \(fetches) of \(ticks * symbols.count); planning CPU \(String(format: "%.3f", seconds)) s for \(ticks) ticks")
        guard fetches == expected else {
            throw BenchmarkFailure("market-week: the planner made \(fetches) symbol fetches, the calendar count is \(expected)")
        }
        print("  check: symbol fetches equal the calendar's count (\(expected))")
    }

    struct BenchmarkFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
