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
            let run = try CommandRunner.run(["history", "X", "--config", "pricewatch.toml", "--end", "2024-10-02T14:00:00Z",
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
}
