import Foundation
import PriceWatchCore

/// One bar close of SYMBOLS symbols x 10 indicator rules (the `generate … indicators` mix) in
/// the daemon's engine: every track warmed up with 300 bars of a random walk, then one quote
/// per symbol that closes the forming bar, timed round after round. Prints the median and
/// the slowest round, the rules evaluated, and the resident memory the tracks' state takes
/// (read before and after building the engine, per series). A component figure: the daemon
/// adds the store's commit of the changed states to it.
enum BarCloseBenchmark {
    static func run(symbols: Int, rounds: Int) {
        let rules = rulesFor(symbols: symbols)
        let before = residentBytes()
        let book = RuleBook(rules: rules)
        var engine = AlertEngine(book: book, trackChanges: true)
        var random = BenchmarkData.SplitMix64(state: 7)
        let start: Int64 = 1_727_875_800_000
        let bar: Int64 = 15 * 60_000
        var prices = [Double](repeating: 100, count: book.sources.count)
        for track in book.tracks.indices {
            let history = (0..<300).map { index -> BarHistory.Bar in
                prices[book.tracks[track].source] *= 1 + (random.unit() - 0.5) * 0.01
                let time = start + Int64(index) * bar
                return BarHistory.Bar(start: time, time: Timestamp(milliseconds: time),
                                      close: ExactDecimal(fast: prices[book.tracks[track].source]) ?? .zero)
            }
            engine.rebuildTrack(track, from: history)
        }
        let series = book.tracks.reduce(0) { $0 + $1.series.count }
        let after = residentBytes()
        var durations: [Duration] = []
        var evaluations = 0, alerts = 0
        let clock = ContinuousClock()
        for round in 0..<rounds {
            let time = start + Int64(300 + round) * bar + 1_000
            let quotes = book.sources.indices.map { source -> Quote in
                prices[source] *= 1 + (random.unit() - 0.5) * 0.01
                return Quote(symbol: book.sources[source].symbol, price: ExactDecimal(fast: prices[source]) ?? .zero,
                             time: Timestamp(milliseconds: time))
            }
            let began = clock.now
            for source in quotes.indices {
                let outcome = engine.process(quotes[source], source: source, provider: "p", now: nil)
                evaluations += outcome.barEvaluations
                alerts += outcome.alerts.count
            }
            _ = engine.drainChangedStates()
            durations.append(clock.now - began)
        }
        durations.sort()
        func ms(_ duration: Duration) -> String {
            String(format: "%.1f", Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15)
        }
        print("bar-close \(symbols) symbols, \(rules.count) rules, \(series) series: median \(ms(durations[durations.count / 2])) ms, "
              + "slowest \(ms(durations[durations.count - 1])) ms, \(evaluations / rounds) evaluations and \(alerts / rounds) alerts a close, "
              + "\(String(format: "%.0f", Double(max(after - before, 0)) / Double(max(series, 1)))) bytes of resident memory per series")
    }

    static func rulesFor(symbols: Int) -> [Rule] {
        var rules: [Rule] = []
        rules.reserveCapacity(symbols * 10)
        let specs: [(Condition, String?, String?)] = [
            (.crosses(.zero), "sma(20)", "sma(50)"), (.below(ExactDecimal(exactly: 30) ?? .zero), "rsi(14)", nil),
            (.above(ExactDecimal(exactly: 70) ?? .zero), "rsi(14)", nil), (.crosses(.zero), "macd(12,26,9)", "macd_signal(12,26,9)"),
            (.above(.zero), nil, "bb_upper(20,2)"), (.below(.zero), nil, "bb_lower(20,2)"), (.above(.zero), nil, "highest(20)"),
            (.below(.zero), nil, "lowest(20)"), (.crosses(.zero), "ema(9)", "wma(21)"), (.above(.zero), "roc(4)", nil),
        ]
        let m15 = Timeframe("15m") ?? .oneDay
        for symbol in 0..<symbols {
            for (index, spec) in specs.enumerated() {
                var rule = Rule(id: "r\(symbol)-\(index)", symbols: ["S\(symbol)"], provider: "p", condition: spec.0)
                let of = spec.1.flatMap { try? SeriesSpec(parsing: $0) } ?? .price
                rule.series = SeriesCondition(timeframe: m15, of: of, level: spec.2.flatMap { try? SeriesSpec(parsing: $0) })
                rules.append(rule)
            }
        }
        return rules
    }

    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
              let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return 0 }
        return pages * 4096
    }
}
