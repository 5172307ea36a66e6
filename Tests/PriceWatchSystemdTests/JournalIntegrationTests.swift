import Foundation
import PriceWatchCore
import PriceWatchSystemd
import PriceWatchTestKit
import Testing

/// The real binary logging into a real `systemd-journald`, started standalone in a private
/// mount namespace (`Tests/Fixtures/systemd/journald-sandbox.sh`; needs root for `unshare`
/// and journald), read back with `journalctl -o json`.
@Suite(.serialized, .enabled(if: getuid() == 0, "starts systemd-journald in a mount namespace: needs root"))
struct JournalIntegrationTests {
    static let sandbox = RepositoryFiles.path("Tests/Fixtures/systemd/journald-sandbox.sh")

    /// The journal's entries as JSON objects (string fields; binary ones are arrays of bytes).
    static func entries(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// A field as text: journalctl writes a value that is not printable text (a newline, for
    /// one) as an array of bytes.
    static func text(_ value: Any?) -> String? {
        if let string = value as? String { return string }
        if let bytes = value as? [Int] { return String(decoding: bytes.map(UInt8.init), as: UTF8.self) }
        return nil
    }

    @Test func theDaemonsEntriesCarryStructuredFieldsAndMessageIDs() async throws {
        let demo = try DemoDaemon()
        let result = try await ChildProcess.run(
            Self.sandbox,
            [demo.path, RepositoryFiles.path("Tests/Fixtures/systemd/journal-scenario.sh"), CommandRunner.executable, demo.path],
            in: demo.path)
        #expect(result.status == 0, "\(result.error)")
        let entries = try Self.entries(demo.directory.file("journal.json"))
        let ours = entries.filter { $0["SYSLOG_IDENTIFIER"] as? String == "pricewatch" }

        // An alert: every field an operator filters on.
        let alert = try #require(ours.first { $0["MESSAGE_ID"] as? String == OperatorEvent.alertFired.messageID },
                                 "no alert entry among \(ours.count) pricewatch entries: \(result.error)")
        #expect((alert["MESSAGE"] as? String)?.hasPrefix("alert fired: ") == true)
        #expect(alert["PRIORITY"] as? String == "5")
        #expect(alert["CODE_FILE"] as? String == "PriceWatchServices/RuleEvaluator.swift")
        #expect(Int(alert["CODE_LINE"] as? String ?? "") ?? 0 > 0)
        #expect((alert["CODE_FUNC"] as? String)?.hasPrefix("ingest(") == true)
        #expect(alert["PRICEWATCH_RULE"] as? String == "x-crosses-15")
        #expect(alert["PRICEWATCH_SYMBOL"] as? String == "X")
        #expect(alert["PRICEWATCH_PROVIDER"] as? String == "replay")
        #expect(alert["PRICEWATCH_EVENT"] as? String == "alert-fired")
        #expect((alert["PRICEWATCH_ALERT_ID"] as? String)?.isEmpty == false)
        #expect(alert["_TRANSPORT"] as? String == "journal", "sent with sd_journal_sendv, not as a stream line")

        // The rejected reload: the diagnostics and the rejection, with their ids and priorities.
        let rejected = try #require(ours.first { $0["MESSAGE_ID"] as? String == OperatorEvent.configurationRejected.messageID })
        #expect((rejected["MESSAGE"] as? String)?.hasPrefix("configuration reload rejected with 1 error(s)") == true)
        #expect(rejected["PRIORITY"] as? String == "3")
        #expect(ours.contains { ($0["MESSAGE"] as? String)?.contains("rules.d/x.toml") == true && $0["PRIORITY"] as? String == "3" })

        let reloaded = try #require(ours.first { $0["MESSAGE_ID"] as? String == OperatorEvent.configurationReloaded.messageID })
        #expect((reloaded["MESSAGE"] as? String)?.hasPrefix("configuration reloaded: 2 rules") == true)
        #expect(reloaded["CODE_FILE"] as? String == "PriceWatchServices/ReloadCoordinator.swift")

        // Start and stop lines, in order; nothing of ours went to the stream as a plain line.
        let messages = ours.compactMap { Self.text($0["MESSAGE"]) }
        let started = try #require(messages.firstIndex { $0.hasPrefix("pricewatch started: ") })
        let stopped = try #require(messages.firstIndex { $0 == "pricewatch stopped" })
        #expect(started < stopped)
        #expect(ours.allSatisfy { $0["_TRANSPORT"] as? String == "journal" })
        // The alerts themselves are the stdout sink's output: stream lines of the unit.
        #expect(entries.contains { $0["_TRANSPORT"] as? String == "stdout" && (Self.text($0["MESSAGE"]) ?? "").contains("\"rule\":\"x-crosses-15\"") })
    }

    @Test func withoutAJournalTheLinesGoToStandardError() async throws {
        let demo = try DemoDaemon()
        let result = try await ChildProcess.run(
            Self.sandbox,
            ["--no-journald", demo.path, RepositoryFiles.path("Tests/Fixtures/systemd/fallback-scenario.sh"),
             CommandRunner.executable, demo.path],
            in: demo.path)
        #expect(result.status == 0, "\(result.error)")
        let lines = try String(contentsOfFile: demo.directory.file("stderr.log"), encoding: .utf8).split(separator: "\n")
        #expect(lines.first?.hasPrefix("pricewatch: cannot write to the journal (") == true, "\(lines.prefix(3))")
        #expect(lines.filter { $0.contains("cannot write to the journal") }.count == 1)
        #expect(lines.contains { $0.contains("alert fired: ") && $0.contains("rule=x-crosses-15") && $0.contains("event=alert-fired") })
        #expect(lines.contains { $0.hasSuffix("pricewatch stopped") })
    }
}
