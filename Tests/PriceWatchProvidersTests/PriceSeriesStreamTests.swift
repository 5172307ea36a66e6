import Foundation
import PriceWatchCore
import PriceWatchProviders
import PriceWatchTestKit
import Testing

/// The streaming backtest (rows from the file in time order, an external merge for a file out
/// of order) against the in-memory reference (the whole series read, then sorted).
@Suite struct PriceSeriesStreamTests {
    struct Streamed {
        var alerts: [Alert] = []
        var summary: Backtester.Summary?
        var outcome: PriceSeriesStream.Outcome
        var restarts = 0
    }

    static func streamed(_ rules: [Rule], path: String, runSize: Int = 1 << 18, chunkSize: Int = 1 << 20) -> Streamed {
        var alerts: [Alert] = []
        var run = BacktestRun(rules: rules)
        var restarts = 0
        let outcome = PriceSeriesStream.forEachRowInTimeOrder(
            path: path, options: .init(runSize: runSize, chunkSize: chunkSize),
            restart: {
                restarts += 1
                alerts = []
                run = BacktestRun(rules: rules)
            },
            row: { row, symbols, currencies in
                run.process(row, symbols: symbols, currencies: currencies) { alerts.append($0) }
            })
        return Streamed(alerts: alerts, summary: run.summary, outcome: outcome, restarts: restarts)
    }

    static func reference(_ rules: [Rule], path: String) throws -> ([Alert], Backtester.Summary) {
        let (series, diagnostics) = PriceSeriesFile.read(path: path)
        #expect(!diagnostics.containsErrors, "\(diagnostics)")
        var alerts: [Alert] = []
        let summary = Backtester.run(rules: rules, series: try #require(series)) { alerts.append($0) }
        return (alerts, summary)
    }

    static func rules() throws -> [Rule] {
        func d(_ text: String) throws -> ExactDecimal { try ExactDecimal(parsing: text) }
        func t(_ text: String) throws -> RuleDuration { try RuleDuration(parsing: text) }
        let symbols = ["AAA", "BBB", "CCC", "DDD"]
        return [
            Rule(id: "above", symbols: symbols, condition: .above(try d("101")), rearm: try d("0.5")),
            Rule(id: "below", symbols: symbols, condition: .below(try d("99"))),
            Rule(id: "crosses", symbols: symbols, condition: .crosses(try d("100")), cooldown: try t("3m")),
            Rule(id: "rise", symbols: symbols, condition: .rise(try d("0.8"))),
            Rule(id: "move-window", symbols: symbols, condition: .move(try d("1")), baseline: .window(try t("5m")),
                 rearm: try d("0.3")),
            Rule(id: "fall-window", symbols: ["AAA", "CCC"], condition: .fall(try d("0.7")), baseline: .window(try t("10m"))),
        ]
    }

    /// Rows of four symbols over `minutes` minutes, time ordered, with several rows per time
    /// (so equal times are everywhere) and repeated times within a symbol.
    static func orderedLines(minutes: Int) -> [String] {
        var random = UInt64(7)
        func next() -> Double {
            random = random &* 6364136223846793005 &+ 1442695040888963407
            return Double(random >> 11) / Double(1 << 53)
        }
        var prices = [100.0, 100.0, 100.0, 100.0]
        var lines: [String] = []
        let start = 1_727_875_800
        for minute in 0..<minutes {
            for symbol in 0..<4 {
                prices[symbol] *= 1 + (next() - 0.5) * 0.01
                let close = 100 + Double(symbol)
                lines.append("\(["AAA", "BBB", "CCC", "DDD"][symbol]),\(start + minute * 60),\(String(format: "%.2f", prices[symbol])),\(String(format: "%.2f", close)),USD")
                // Now and then a second row of the same symbol at the same time, another price:
                // only the first in file order is accepted.
                if minute % 7 == symbol {
                    lines.append("\(["AAA", "BBB", "CCC", "DDD"][symbol]),\(start + minute * 60),\(String(format: "%.2f", prices[symbol] * 1.02)),,USD")
                }
            }
        }
        return lines
    }

    /// A deterministic shuffle that keeps rows with equal time and symbol in their order, so
    /// the shuffled file means the same series as the ordered one.
    static func shuffled(_ lines: [String]) -> [String] {
        var random = UInt64(99)
        var keyed = lines.enumerated().map { index, line -> (UInt64, Int, String) in
            random = random &* 6364136223846793005 &+ 1442695040888963407
            return (random >> 20, index, line)
        }
        keyed.sort { $0.0 < $1.0 }
        // Restore file order among rows of the same symbol and time.
        var slots: [String: [Int]] = [:]
        for (position, entry) in keyed.enumerated() {
            let fields = entry.2.split(separator: ",", omittingEmptySubsequences: false)
            slots["\(fields[0]),\(fields[1])", default: []].append(position)
        }
        var result = keyed.map(\.2)
        for positions in slots.values {
            let inFileOrder = positions.map { keyed[$0] }.sorted { $0.1 < $1.1 }.map(\.2)
            for (position, line) in zip(positions.sorted(), inFileOrder) { result[position] = line }
        }
        return result
    }

    static func write(_ lines: [String], to directory: TemporaryDirectory, _ name: String) throws -> String {
        try directory.write(name, "symbol,time,price,previous_close,currency\n" + lines.joined(separator: "\n") + "\n")
        return directory.file(name)
    }

    @Test func anOrderedFileIsEvaluatedInOnePassWithTheReferenceAlerts() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.write(Self.orderedLines(minutes: 600), to: directory, "ordered.csv")
        let rules = try Self.rules()
        let (expected, expectedSummary) = try Self.reference(rules, path: path)
        let streamed = Self.streamed(rules, path: path, runSize: 16, chunkSize: 100)
        #expect(expected.count > 50, "the data should fire many alerts, fired \(expected.count)")
        #expect(streamed.outcome.diagnostics.isEmpty, "\(streamed.outcome.diagnostics)")
        #expect(!streamed.outcome.sorted)
        #expect(streamed.restarts == 0)
        #expect(streamed.alerts == expected)
        #expect(streamed.summary == expectedSummary)
        #expect(expectedSummary.repeats > 0, "equal times within a symbol should be repeats")
    }

    @Test func aShuffledFileIsMergedFromSortedRunsWithTheReferenceAlerts() throws {
        let directory = try TemporaryDirectory()
        let ordered = Self.orderedLines(minutes: 600)
        let orderedPath = try Self.write(ordered, to: directory, "ordered.csv")
        let shuffledPath = try Self.write(Self.shuffled(ordered), to: directory, "shuffled.csv")
        let rules = try Self.rules()
        let (expected, expectedSummary) = try Self.reference(rules, path: shuffledPath)
        let (orderedExpected, _) = try Self.reference(rules, path: orderedPath)
        // Rows of different symbols at one time may change places (so may their alerts' order);
        // each symbol's rows keep theirs, so the same alerts fire.
        #expect(Set(expected) == Set(orderedExpected), "the shuffle keeps each symbol's series")
        // A tiny run size: hundreds of runs, each through the temporary file, merged.
        let streamed = Self.streamed(rules, path: shuffledPath, runSize: 7, chunkSize: 333)
        #expect(streamed.outcome.diagnostics.isEmpty, "\(streamed.outcome.diagnostics)")
        #expect(streamed.outcome.sorted)
        #expect(streamed.outcome.runs > 100, "runs: \(streamed.outcome.runs)")
        #expect(streamed.restarts == 1)
        #expect(streamed.alerts == expected)
        #expect(streamed.summary == expectedSummary)
        // One run held in memory: sorted there, nothing written.
        let inMemory = Self.streamed(rules, path: shuffledPath)
        #expect(inMemory.outcome.sorted && inMemory.outcome.runs == 0)
        #expect(inMemory.alerts == expected)
    }

    @Test func equalTimesKeepFileOrderThroughTheMerge() throws {
        // The same symbol twice at each time, the prices in the other order in the second file:
        // the first row in file order is the one accepted, whichever the run it lands in.
        let directory = try TemporaryDirectory()
        var first: [String] = [], second: [String] = []
        for minute in (0..<40).reversed() {
            let time = 1_727_875_800 + minute * 60
            let low = "AAA,\(time),98.00,,USD", high = "AAA,\(time),102.00,,USD"
            first += [low, high]
            second += [high, low]
        }
        let rules = [Rule(id: "above", symbols: ["AAA"], condition: .above(ExactDecimal(scaled: 101 * ExactDecimal.unit)))]
        let lowFirst = Self.streamed(rules, path: try Self.write(first, to: directory, "low-first.csv"), runSize: 3)
        let highFirst = Self.streamed(rules, path: try Self.write(second, to: directory, "high-first.csv"), runSize: 3)
        #expect(lowFirst.outcome.runs > 1 && highFirst.outcome.runs > 1)
        #expect(lowFirst.alerts.isEmpty, "98 is accepted at every time, 102 is a repeat: \(lowFirst.alerts.map(\.price))")
        #expect(highFirst.alerts.count == 1 && highFirst.alerts.first?.price == ExactDecimal(scaled: 102 * ExactDecimal.unit))
        #expect(highFirst.summary?.repeats == 40 && lowFirst.summary?.repeats == 40)
    }

    @Test func malformedRowsAreReportedAndAMissingFileNamed() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.write(["AAA,1727875800,100,,USD", "AAA,not-a-time,100,,USD", "AAA,1727875700,100,,USD"],
                                  to: directory, "bad.csv")
        let streamed = Self.streamed(try Self.rules(), path: path, runSize: 1)
        #expect(streamed.outcome.diagnostics.containsErrors)
        #expect(streamed.outcome.diagnostics.contains { $0.description.contains("bad.csv:3") }, "\(streamed.outcome.diagnostics)")
        let missing = Self.streamed(try Self.rules(), path: directory.file("absent.csv"))
        #expect(missing.outcome.diagnostics.map(\.description).joined().contains("no such file"))
    }
}
