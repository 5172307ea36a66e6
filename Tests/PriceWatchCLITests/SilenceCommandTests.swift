import Foundation
import PriceWatchCore
import PriceWatchStore
import PriceWatchTestKit
import Testing

/// `pricewatch silence` end to end: the real binary adds and expires a silence while the daemon
/// runs over the replay provider; silenced alerts are recorded, listed as silenced, and never
/// reach the sink.
@Suite(.serialized) struct SilenceCommandTests {
    static func ids(_ lines: [String]) -> [String] {
        lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["id"] as? String }
    }

    @Test func aSilenceAddedWhileTheDaemonRunsHoldsBackItsAlertsUntilExpired() async throws {
        let directory = try TemporaryDirectory()
        // crosses 15: every row after the first crosses, one a poll (every second). Twenty
        // minutes of rows: a loaded CI machine once spent the first 60 s on the commands before
        // the expiry, and the file ran out before the alerts that had to come after it.
        try ReplayDaemonFiles.write(in: directory, prices: (0..<1200).map { $0 % 2 == 0 ? "10" : "20" })
        let daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path)
        try await daemon.waitForOutput("a first alert") { Self.ids($0).count >= 1 }

        let added = try await CommandRunner.run(["silence", "add", "--config", "pricewatch.toml", "--rule", "x-crosses-15",
                                                 "--for", "1h", "--comment", "maintenance"], in: directory.path)
        #expect(added.status == 0, "\(added.standardError)")
        let silenceID = try #require(added.outputLines.first?.split(separator: " ").dropFirst().first.map(String.init),
                                     "no silence id in: \(added.standardOutput)")
        #expect(added.standardOutput.contains("rule x-crosses-15 until"))

        // The daemon applies it without a reload: alerts keep firing and are recorded as silenced.
        let store = try SQLiteAlertStore.openReadOnly(path: directory.file("state/pricewatch.db"))
        defer { try? store.close() }
        try await waitUntil("three silenced alerts in the alert log") {
            try await store.alerts(matching: AlertQuery(status: .silenced)).count >= 3
        }
        let listed = try await CommandRunner.run(["silence", "list", "--config", "pricewatch.toml", "--format", "json"], in: directory.path)
              #expect(listed.status == 0)
        #expect(listed.outputLines.count == 1 && listed.standardOutput.contains("\"id\":\"\(silenceID)\"")
                && listed.standardOutput.contains("\"active\":true") && listed.standardOutput.contains("\"comment\":\"maintenance\""),
                "\(listed.standardOutput)")

        let expired = try await CommandRunner.run(["silence", "expire", "--config", "pricewatch.toml", silenceID], in: directory.path)
              #expect(expired.status == 0, "\(expired.standardError)")
        #expect(expired.standardOutput.hasPrefix("expired \(silenceID) rule x-crosses-15 ended"), "\(expired.standardOutput)")
        let deliveredBefore = Self.ids(daemon.outputLines).count
        try await daemon.waitForOutput("alerts delivered again after the expiry") { Self.ids($0).count >= deliveredBefore + 2 }
        #expect(try await daemon.stop() == 0)

        let silenced = try await CommandRunner.run(["alerts", "--config", "pricewatch.toml", "--status", "silenced", "--format", "json"],
                                                   in: directory.path)
        #expect(silenced.status == 0, "\(silenced.standardError)")
        let silencedIDs = Set(Self.ids(silenced.outputLines))
        #expect(silencedIDs.count >= 3)
        #expect(silenced.outputLines.allSatisfy { $0.contains("\"status\":\"silenced\"") }, "\(silenced.standardOutput)")
        let delivered = Set(Self.ids(daemon.outputLines))
        #expect(silencedIDs.isDisjoint(with: delivered), "a silenced alert reached the sink: \(silencedIDs.intersection(delivered))")
        let text = try await CommandRunner.run(["alerts", "--config", "pricewatch.toml", "--status", "silenced"], in: directory.path)
              #expect(text.standardOutput.contains("silenced by \(silenceID)"), "\(text.standardOutput)")
        let none = try await CommandRunner.run(["silence", "list", "--config", "pricewatch.toml"], in: directory.path)
              #expect(none.outputLines == ["no silences in force"])
    }

    @Test func usageErrorsAMissingStateAndAnUnknownIdSayWhatIsWrong() async throws {
        let directory = try TemporaryDirectory()
        try ReplayDaemonFiles.write(in: directory, prices: ["10", "20"])
        let neither = try await CommandRunner.run(["silence", "add", "--config", "pricewatch.toml"], in: directory.path)
              #expect(neither.status == 64)
        #expect(neither.standardError.contains("--rule ID or --symbol SYMBOL"))
        let both = try await CommandRunner.run(["silence", "add", "--config", "pricewatch.toml", "--symbol", "X", "--for", "1h",
                                                "--until", "23:00"], in: directory.path)
        #expect(both.status == 64)
        let badUntil = try await CommandRunner.run(["silence", "add", "--config", "pricewatch.toml", "--symbol", "X", "--until", "soon"],
                                                   in: directory.path)
        #expect(badUntil.status == 64)
        #expect(badUntil.standardError.contains("found \"soon\""), "\(badUntil.standardError)")
        let noState = try await CommandRunner.run(["silence", "add", "--config", "pricewatch.toml", "--symbol", "X"], in: directory.path)
              #expect(noState.status == 1, "a silence must not create the state database")
        #expect(!FileManager.default.fileExists(atPath: directory.file("state/pricewatch.db")))
        let daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path)
        try await daemon.waitForOutput("an alert") { Self.ids($0).count >= 1 }
        #expect(try await daemon.stop() == 0)
        let unknown = try await CommandRunner.run(["silence", "expire", "--config", "pricewatch.toml", "s-000000000000"], in: directory.path)
              #expect(unknown.status == 1)
        #expect(unknown.standardError.contains("no silence has the id 's-000000000000'"), "\(unknown.standardError)")
    }

    @Test func aSilenceThatMatchesNoRuleIsRefusedWithTheNameThatExistsUnlessForced() async throws {
        let directory = try TemporaryDirectory()
        try ReplayDaemonFiles.write(in: directory, prices: ["10", "20"])
        let typo = try await CommandRunner.run(["silence", "add", "--config", "pricewatch.toml", "--rule", "x-crosses15"], in: directory.path)
              #expect(typo.status == 1)
        #expect(typo.errorLines == ["error: no rule has the id 'x-crosses15' (did you mean 'x-crosses-15'?); "
                                    + "--force adds the silence anyway, ahead of its rule"], "\(typo.errorLines)")
        let lower = try await CommandRunner.run(["silence", "add", "--config", "pricewatch.toml", "--symbol", "x"], in: directory.path)
              #expect(lower.status == 1)
        #expect(lower.errorLines == ["error: no rule watches the symbol 'x' (did you mean 'X'?); "
                                     + "--force adds the silence anyway, ahead of its rule"], "\(lower.errorLines)")
        let daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path)
        try await daemon.waitForOutput("an alert") { Self.ids($0).count >= 1 }
        #expect(try await daemon.stop() == 0)
        let ahead = try await CommandRunner.run(["silence", "add", "--config", "pricewatch.toml", "--rule", "rule-to-come", "--force"],
                                                in: directory.path)
        #expect(ahead.status == 0, "\(ahead.standardError)")
        #expect(ahead.outputLines.first?.contains("rule rule-to-come until") == true, "\(ahead.outputLines)")
        let matching = try await CommandRunner.run(["silence", "add", "--config", "pricewatch.toml", "--symbol", "X"], in: directory.path)
              #expect(matching.status == 0, "\(matching.standardError)")
    }
}
