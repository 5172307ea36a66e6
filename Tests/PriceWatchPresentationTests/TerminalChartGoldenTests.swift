import Foundation
import PriceWatchCore
import PriceWatchPresentation
import PriceWatchTestKit
import Testing

/// The terminal chart of `pricewatch history` against golden files in `Tests/Fixtures/history/`
/// (fixed width and height, no colour): the real AAPL session of 2024-10-02, and hourly prices
/// across the spring-forward in New York and the fall-back in Berlin, whose hour labels show the
/// skipped and the repeated hour. `UPDATE_GOLDEN=1` rewrites the files.
@Suite struct TerminalChartGoldenTests {
    static func zone(_ name: String) throws -> TimeZone { try #require(TimeZone(identifier: name)) }

    /// The closes of a backtest CSV as one-minute candles.
    static func csvCandles(_ path: String) throws -> [Candle] {
        let text = try String(contentsOfFile: RepositoryFiles.path(path), encoding: .utf8)
        return try text.split(whereSeparator: \.isNewline).dropFirst().map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let time = try #require(Timestamp(parsing: fields[1]))
            let price = try #require(ExactDecimal(fields[2]))
            return Candle(time: time, interval: .oneMinute, open: price, high: price, low: price, close: price)
        }
    }

    /// Hourly candles from `start` (UTC seconds), `count` of them, a gentle zig-zag.
    static func hourly(from start: Int64, count: Int) -> [Candle] {
        (0..<count).map { index in
            let price = ExactDecimal(scaled: (100 + Int64(index % 7) * 2 + Int64(index / 3)) * ExactDecimal.unit)
            return Candle(time: Timestamp(seconds: start + Int64(index) * 3_600), interval: .oneHour, open: price, high: price,
                          low: price, close: price)
        }
    }

    static func compare(_ lines: [String], golden name: String) throws {
        let path = RepositoryFiles.path("Tests/Fixtures/history/\(name)")
        let rendered = lines.joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try rendered.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOfFile: path, encoding: .utf8)
        #expect(rendered == expected, "\(name) differs; rendered:\n\(rendered)")
    }

    @Test func appleSessionInNewYork() throws {
        let candles = try Self.csvCandles("demo/data/aapl-1m-2024-10-02.csv")
        #expect(candles.count == 389)
        let chart = TerminalChart(candles: candles, width: 80, height: 12, timeZone: try Self.zone("America/New_York"),
                                  levels: [.init(label: "previous close 226.21", price: ExactDecimal("226.21")!),
                                           .init(label: "aapl-225: above 225", price: ExactDecimal("225")!),
                                           .init(label: "aapl-200: below 200", price: ExactDecimal("200")!)])
        let lines = chart.render()
        try Self.compare(lines, golden: "chart-aapl-1m-2024-10-02-new-york.txt")
        // The axis starts at the open, in New York time, then every hour where there is room;
        // the level far below is listed, not drawn.
        #expect(lines.contains { $0.hasPrefix("        09:30") && $0.contains("11:00") && $0.contains("15:00") })
        #expect(lines.last == "aapl-200: below 200 (off the chart)")
    }

    @Test func sameSessionInUTCLabelsTheSameCandlesFourHoursLater() throws {
        let candles = try Self.csvCandles("demo/data/aapl-1m-2024-10-02.csv")
        let lines = TerminalChart(candles: candles, width: 80, height: 6, timeZone: try Self.zone("UTC")).render()
        try Self.compare(lines, golden: "chart-aapl-1m-2024-10-02-utc.txt")
        #expect(lines.contains { $0.hasPrefix("        13:30") && $0.contains("15:00") && $0.contains("19:00") })
    }

    @Test func springForwardInNewYorkSkipsTwoOClock() throws {
        // 2024-03-10 00:00 to 06:00 New York (05:00 to 10:00 UTC): 02:00 does not exist.
        let candles = Self.hourly(from: 1_710_046_800, count: 6)
        let lines = TerminalChart(candles: candles, width: 60, height: 5, timeZone: try Self.zone("America/New_York")).render()
        try Self.compare(lines, golden: "chart-dst-new-york-2024-03-10.txt")
        let labels = try #require(lines.last)
        #expect(labels.contains("01:00") && labels.contains("03:00") && !labels.contains("02:00"))
    }

    @Test func fallBackInBerlinRepeatsTwoOClock() throws {
        // 2024-10-27 00:00 to 05:00 Berlin (2024-10-26 22:00 to 2024-10-27 04:00 UTC): 02:00 twice.
        let candles = Self.hourly(from: 1_729_980_000, count: 7)
        let lines = TerminalChart(candles: candles, width: 60, height: 5, timeZone: try Self.zone("Europe/Berlin")).render()
        try Self.compare(lines, golden: "chart-dst-berlin-2024-10-27.txt")
        let labels = try #require(lines.last)
        #expect(labels.components(separatedBy: "02:00").count - 1 == 2)
    }

    @Test func sessionBreaksAreMarkedAndColourOnlyWhenAsked() throws {
        // Two sessions of five minutes, a night apart.
        let day1 = (0..<5).map { candle(1_727_875_800 + Int64($0) * 60, "10", "11", "9", "10") }
        let day2 = (0..<5).map { candle(1_727_962_200 + Int64($0) * 60, "11", "12", "10", "11") }
        let zone = try Self.zone("UTC")
        let plain = TerminalChart(candles: day1 + day2, width: 40, height: 4, timeZone: zone).render()
        #expect(plain.contains { $0.contains("┊") })
        #expect(!plain.joined().contains("\u{1B}["))
        let coloured = TerminalChart(candles: day1 + day2, width: 40, height: 4, timeZone: zone, colour: true).render()
        #expect(coloured.joined().contains("\u{1B}[32m"))
    }

    @Test func noCandlesSaySo() throws {
        #expect(TerminalChart(candles: [], width: 80, height: 10, timeZone: try Self.zone("UTC")).render()
                == ["(no prices in this range)"])
    }
}

/// Extreme prices and levels draw without trapping.
@Suite struct TerminalChartExtremesTests {
    @Test func hugePricesAndLevelsDoNotOverflow() throws {
        let top = ExactDecimal(scaled: .max - 1)
        let candles = [
            Candle(time: Timestamp(seconds: 0), interval: .oneMinute, open: top, high: top, low: top, close: top),
            Candle(time: Timestamp(seconds: 60), interval: .oneMinute, open: ExactDecimal(scaled: 1), high: top,
                   low: ExactDecimal(scaled: 1), close: ExactDecimal(scaled: 1)),
        ]
        let lines = TerminalChart(candles: candles, width: 40, height: 4, timeZone: try #require(TimeZone(identifier: "UTC")),
                                  levels: [.init(label: "low", price: ExactDecimal(scaled: .min + 1)),
                                           .init(label: "high", price: top)]).render()
        #expect(lines.count >= 6)
        #expect(lines.last == "low (off the chart)")
    }
}
