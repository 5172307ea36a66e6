import Foundation
import PriceWatchConfig
import PriceWatchCore

/// `pricewatch-bench market-hours [CALENDARS_DIR] [LOOKUPS]`: loads the trading calendars
/// (best of 5), then asks `MarketCalendars.status(of:at:)` LOOKUPS times (default 1,000,000)
/// for random markets at random instants of 2015-2030 — what market-aware polling asks once
/// per symbol and poll. Prints the load time, lookups per second and peak memory.
///
/// Correctness first: 20,000 of the answers are checked against a linear scan of the market's
/// sessions (`sessions(from:through:)`); any mismatch prints MISMATCH and exits 1.
enum MarketHoursBenchmark {
    static func run(directory: String, lookups: Int) throws {
        var best = Double.infinity
        var loaded: (calendars: MarketCalendars, diagnostics: [Diagnostic])?
        for _ in 0..<5 {
            let start = ContinuousClock.now
            loaded = CalendarLibrary.load(shipped: directory, overrides: nil)
            best = min(best, seconds(ContinuousClock.now - start))
        }
        guard let (calendars, diagnostics) = loaded, !diagnostics.containsErrors, !calendars.markets.isEmpty else {
            print("market-hours: MISMATCH: the calendars in \(directory) did not load: \(loaded?.diagnostics ?? [])")
            exit(1)
        }
        let markets = calendars.markets
        print(String(format: "market-hours: load %d calendars: %.1f ms (best of 5)", markets.count, best * 1000))

        let first = Timestamp(year: 2015, month: 1, day: 1) ?? Timestamp(milliseconds: 0)
        let span = (Timestamp(year: 2031, month: 1, day: 1) ?? first).milliseconds - first.milliseconds
        var random = BenchmarkData.SplitMix64(state: 12)
        var questions: [(MarketIdentifier, Timestamp)] = []
        questions.reserveCapacity(lookups)
        for _ in 0..<lookups {
            let market = markets[Int(random.next() % UInt64(markets.count))]
            let instant = Timestamp(milliseconds: first.milliseconds + Int64(random.next() % UInt64(span)) / 60_000 * 60_000)
            questions.append((market, instant))
        }
        var open = 0
        let start = ContinuousClock.now
        for (market, instant) in questions where calendars.status(of: market, at: instant).isOpen { open += 1 }
        let elapsed = seconds(ContinuousClock.now - start)
        print(String(format: "market-hours: %d status lookups: %.3f s, %.0f lookups/s, %.2f µs each, %.1f%% open",
                     lookups, elapsed, Double(lookups) / elapsed, elapsed / Double(lookups) * 1e6, Double(open) / Double(lookups) * 100))

        // The reference: is the instant inside a session interval (break excluded)?
        var sessions: [MarketIdentifier: [TradingSession]] = [:]
        for market in markets {
            guard let from = CivilDate(year: 2014, month: 12, day: 30), let to = CivilDate(year: 2031, month: 1, day: 2) else { continue }
            sessions[market] = calendars.sessions(of: market, from: from, through: to)
        }
        var mismatches = 0
        for (market, instant) in questions.prefix(20_000) {
            let expected = sessions[market]?.contains { session in
                session.intervals.contains { $0.start <= instant && instant < $0.end }
            } ?? true
            if calendars.status(of: market, at: instant).isOpen != expected {
                mismatches += 1
                if mismatches <= 10 { print("market-hours: MISMATCH \(market) at \(instant): status says open = \(!expected)") }
            }
        }
        print(String(format: "market-hours: 20000 answers checked against the session list, %d mismatches; peak RSS %.1f MB",
                     mismatches, Double(ConfigLoadBenchmark.peakResidentBytes()) / 1e6))
        if mismatches > 0 { exit(1) }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

}
