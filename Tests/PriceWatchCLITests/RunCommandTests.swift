import Foundation
import PriceWatchTestKit
import Testing

/// `pricewatch run` end to end: the real binary over a replay provider and a SQLite file.
@Suite(.serialized) struct RunCommandTests {
    static func writeDaemon(in directory: TemporaryDirectory, prices: [String]) throws {
        try ReplayDaemonFiles.write(in: directory, prices: prices)
    }

    static func alertTimes(_ lines: [String]) -> [String] {
        lines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["time"] as? String
        }
    }

    @Test func anInvalidConfigurationAtStartExits78() async throws {
        let directory = try TemporaryDirectory()
        try Self.writeDaemon(in: directory, prices: ["10"])
        try directory.write("rules.d/bad.toml", "[[rule]]\nid = \"bad\"\nsymbol = \"X\"\n")
        let result = try await CommandRunner.run(["run", "--config", "pricewatch.toml"], in: directory.path)
        #expect(result.status == 78)
        #expect(result.errorLines.contains { $0.hasPrefix("rules.d/bad.toml") && $0.contains("error:") })
    }

    /// Stop the daemon part-way, start it again over the same database: every crossing is
    /// alerted exactly once across both runs, with distinct ids.
    @Test func aRestartNeverFiresTheSameCrossingTwice() async throws {
        let directory = try TemporaryDirectory()
        // crosses 15: quote 1 records the side; quotes 2...6 each cross. The first run has only
        // the first three quotes, so however slowly the test reads its output (a loaded
        // machine), it cannot run ahead to the crossings the second run is waited on for.
        let prices = ["10", "20", "10", "20", "10", "20"]
        try Self.writeDaemon(in: directory, prices: Array(prices.prefix(3)))
        let first = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path)
        try await first.waitForOutput("two alerts") { Self.alertTimes($0).count >= 2 }
        #expect(try await first.stop() == 0)
        let firstAlerts = first.outputLines
        #expect(Self.alertTimes(firstAlerts) == ["2024-10-02T13:31:00Z", "2024-10-02T13:32:00Z"])

        try Self.writeDaemon(in: directory, prices: prices)
        let second = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path)
        // The second run replays the first three quotes again (each must fire nothing) before
        // the last row's crossing, so waiting for that proves the repeats were processed.
        try await second.waitForOutput("the alert at 13:35") { Self.alertTimes($0).contains("2024-10-02T13:35:00Z") }
        #expect(try await second.stop() == 0)

        let all = firstAlerts + second.outputLines
        let times = Self.alertTimes(all)
        #expect(times.sorted() == ["2024-10-02T13:31:00Z", "2024-10-02T13:32:00Z", "2024-10-02T13:33:00Z",
                                   "2024-10-02T13:34:00Z", "2024-10-02T13:35:00Z"])
        let ids = all.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["id"] as? String }
        #expect(Set(ids).count == 5)
    }

    @Test func sighupWithABrokenConfigurationKeepsTheRunningOne() async throws {
        let directory = try TemporaryDirectory()
        try Self.writeDaemon(in: directory, prices: ["10", "20", "10", "20", "10", "20", "10", "20"])
        let daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path)
        try await daemon.waitForOutput("an alert") { Self.alertTimes($0).count >= 1 }
        try directory.write("rules.d/x.toml", "[[rule]]\nid = \"x-crosses-15\"\nsymbol = \"X\"\ncrosses = 15\nrearm = 1\n")
        daemon.signal(SIGHUP)
        // The daemon keeps alerting with the old rules after rejecting the new ones.
        let seen = Self.alertTimes(daemon.outputLines).count
        try await daemon.waitForOutput("two more alerts after the reload") { Self.alertTimes($0).count >= seen + 2 }
        #expect(try await daemon.stop(signal: SIGINT) == 0)
        #expect(daemon.errorLines.contains { $0.contains("rules.d/x.toml") && $0.contains("'rearm'") })
        #expect(daemon.errorLines.contains { $0.contains("configuration reload rejected") })
    }
}
