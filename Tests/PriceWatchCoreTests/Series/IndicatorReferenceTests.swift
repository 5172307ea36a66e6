import Foundation
import PriceWatchCore
import PriceWatchTestKit
import Testing

/// Every indicator, bar by bar, against the independent reference of the Pine definitions
/// (`Tests/Fixtures/indicators/reference.py`, computed the straightforward way) on the real
/// recorded series: the AAPL minute session grouped into 5m, 15m and 1h bars, and the monthly
/// stocks as daily and weekly bars.
@Suite struct IndicatorReferenceTests {
    static let specs = ["price", "sma(3)", "sma(20)", "ema(3)", "ema(12)", "wma(5)", "rsi(3)", "rsi(14)", "macd(12,26,9)",
                        "macd_signal(3,6,4)", "macd_hist(12,26,9)", "bb_upper(20,2)", "bb_middle(5)", "bb_lower(10,2.5)",
                        "highest(5)", "lowest(12)", "roc(1)", "roc(10)"]

    /// (symbol, time, price) rows of a backtest CSV, in time order (file order for equal times).
    static func rows(_ file: String) throws -> [(symbol: String, time: Timestamp, price: ExactDecimal)] {
        let text = try String(contentsOfFile: RepositoryFiles.path("demo/data/\(file)"), encoding: .utf8)
        var rows: [(symbol: String, time: Timestamp, price: ExactDecimal)] = []
        for line in text.split(whereSeparator: \.isNewline).dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let time = try #require(Timestamp(parsing: fields[1]), "time \(fields[1])")
            rows.append((fields[0], time, try ExactDecimal(parsing: fields[2])))
        }
        return rows.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    /// The lines `reference.py values` prints: `SYMBOL TIME SERIES VALUE` per closed bar.
    static func pricewatchValues(_ timeframeText: String, _ file: String) throws -> [String] {
        let timeframe = try #require(Timeframe(timeframeText))
        let specs = try Self.specs.map { try SeriesSpec(parsing: $0) }
        var computations: [String: [any SeriesComputation]] = [:]
        var forming: [String: (start: Int64, time: Timestamp, price: ExactDecimal)] = [:]
        var lines: [String] = []
        for row in try rows(file) {
            let start = timeframe.barStart(of: row.time, sessionOpen: nil)
            if let bar = forming[row.symbol], start > bar.start {
                var states = computations[row.symbol] ?? specs.map { $0.indicator.makeComputation($0.arguments) }
                for index in specs.indices {
                    let value = states[index].append(bar.price.doubleValue)
                    lines.append("\(row.symbol) \(bar.time.rfc3339) \(specs[index]) \(value.map { "\($0)" } ?? "-")")
                }
                computations[row.symbol] = states
            }
            forming[row.symbol] = (start, row.time, row.price)
        }
        return lines
    }

    static func referenceValues(_ timeframe: String, _ file: String) async throws -> [String] {
        let result = try await CommandRunner.run(program: "/usr/bin/env", ["python3", RepositoryFiles.path("Tests/Fixtures/indicators/reference.py"),
                                                                    "values", timeframe, RepositoryFiles.path("demo/data/\(file)")])
        try #require(result.status == 0, "reference.py failed: \(result.standardError)")
        return result.outputLines
    }

    @Test(arguments: [("5m", "aapl-1m-2024-10-02.csv"), ("15m", "aapl-1m-2024-10-02.csv"), ("1h", "aapl-1m-2024-10-02.csv"),
                      ("1d", "stocks-monthly-2000-2010.csv"), ("1w", "stocks-monthly-2000-2010.csv")])
    func everySeriesAgreesWithTheReference(timeframe: String, file: String) async throws {
        let ours = try Self.pricewatchValues(timeframe, file)
        let theirs = try await Self.referenceValues(timeframe, file)
        try #require(ours.count == theirs.count, "\(ours.count) values against the reference's \(theirs.count)")
        #expect(ours.count >= Self.specs.count * 6)
        var defined = 0
        for (mine, reference) in zip(ours, theirs) {
            let a = mine.split(separator: " "), b = reference.split(separator: " ")
            #expect(a[0...2] == b[0...2], "\(mine) against \(reference)")
            if a[3] == "-" || b[3] == "-" {
                #expect(a[3] == b[3], "defined on different bars: \(mine) against \(reference)")
                continue
            }
            let x = try #require(Double(a[3])), y = try #require(Double(b[3]))
            #expect(abs(x - y) <= 1e-9 * max(1, abs(y)), "\(mine) against \(reference)")
            defined += 1
        }
        // The comparison means something only if most series got values.
        #expect(defined > ours.count / 5, "only \(defined) of \(ours.count) values defined")
    }
}
