import Foundation
import PriceWatchTestKit
import Testing

/// The daemon records the history of what it polls: `pricewatch run` over a replayed series,
/// and `pricewatch history` reading it back (stored, no backfill) while the daemon runs.
@Suite struct HistoryDaemonTests {
    @Test func theDaemonRecordsOneMinuteCandlesThatHistoryReads() async throws {
        let directory = try TemporaryDirectory()
        try ReplayDaemonFiles.write(in: directory, prices: ["10", "11", "12.5", "12", "13"])
        let daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path)
        var result: CommandRunner.Result?
        try await waitUntil("`history` to list five stored candles (last: \(result?.standardOutput ?? "-") \(result?.standardError ?? "-"))") {
            let run = try await CommandRunner.run(["history", "X", "--config", "pricewatch.toml", "--end", "2024-10-02T14:00:00Z",
                                                   "--format", "csv"], in: directory.path)
            result = run
            return run.status == 0 && run.outputLines.count == 6
        }
        let last = try #require(result)
        #expect(last.outputLines == [
            "symbol,time,price,previous_close,currency",
            "X,2024-10-02T13:30:00Z,10.00,,",
            "X,2024-10-02T13:31:00Z,11.00,,",
            "X,2024-10-02T13:32:00Z,12.50,,",
            "X,2024-10-02T13:33:00Z,12.00,,",
            "X,2024-10-02T13:34:00Z,13.00,,",
        ])
        #expect(last.standardError == "X: 5 1m candles, stored history\n")
        #expect(try await daemon.stop() == 0)
    }

    /// The rule and time of every alert of JSON Lines (the daemon's stdout sink, or a backtest).
    static func alerts(_ lines: [String]) -> [String] {
        lines.compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let rule = object["rule"] as? String, let time = object["time"] as? String else { return nil }
            return "\(rule) \(time)"
        }
    }

    @Test func theExportedCSVReplaysToTheAlertsOfTheLiveRun() async throws {
        let directory = try TemporaryDirectory()
        // Every quote carries previous close 100: falls of 1.5%, 2% and 3% with recoveries between.
        try ReplayDaemonFiles.write(in: directory, prices: ["100", "98.5", "100", "98", "100", "97"],
                                    rules: "[[rule]]\nid = \"x-fall-1\"\nsymbol = \"X\"\nfall = 1\n")
        let rows = ["100", "98.5", "100", "98", "100", "97"].enumerated().map { "X,\(1_727_875_800 + $0.offset * 60),\($0.element),100" }
        try directory.write("prices.csv", (["symbol,time,price,previous_close"] + rows).joined(separator: "\n") + "\n")
        let daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path)
        try await waitUntil("three live alerts (stdout: \(daemon.outputLines), stderr: \(daemon.errorLines.suffix(5)))") {
            Self.alerts(daemon.outputLines).count == 3
        }
        var export: CommandRunner.Result?
        try await waitUntil("`history` to export six candles (last: \(export?.standardOutput ?? "-") \(export?.standardError ?? "-"))") {
            let run = try await CommandRunner.run(["history", "X", "--config", "pricewatch.toml", "--end", "2024-10-02T14:00:00Z",
                                                   "--format", "csv"], in: directory.path)
            export = run
            return run.status == 0 && run.outputLines.count == 7
        }
        #expect(try await daemon.stop() == 0)
        let exported = try #require(export)
        #expect(exported.outputLines.dropFirst().allSatisfy { $0.hasSuffix(",100.00,") }, "\(exported.outputLines)")
        try directory.write("exported.csv", exported.standardOutput)
        let replay = try await CommandRunner.run(["backtest", "--rules", "rules.d/x.toml", "--data", "exported.csv", "--format", "json"],
                                                 in: directory.path)
        #expect(replay.status == 0, "\(replay.standardError)")
        let live = Self.alerts(daemon.outputLines)
        #expect(live.count == 3)
        #expect(Self.alerts(replay.outputLines) == live, "backtest: \(replay.outputLines)")
    }
}
