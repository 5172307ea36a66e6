import Foundation
import PriceWatchTestKit
import Testing

/// Issue 29, item 2: the state file deleted (or replaced) while the daemon ran went unnoticed:
/// SQLite kept writing to the unlinked file, and everything was lost at the next start, which
/// created an empty state without a word. Now the daemon compares the file it has open with the
/// one the path names and stops with 65; a marker beside the file says pricewatch has used it,
/// so a missing file is then a lost state for `check --state`, the commands and a new start.
@Suite(.serialized) struct StateFileDeletedTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
        try ReplayDaemonFiles.write(in: directory, prices: (0..<600).map { $0 % 2 == 0 ? "10" : "20" })
    }

    var state: String { directory.file("state/pricewatch.db") }

    func startDaemon() async throws -> RunningDaemon {
        let daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml", "--log-target", "stderr"], directory: directory.path)
        try await daemon.waitForOutput("a first alert") { !$0.isEmpty }
        return daemon
    }

    func expectStopped65(_ daemon: RunningDaemon, saying expected: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let status = try await daemon.waitForExit(timeout: .seconds(30))
        #expect(status == 65, "\(daemon.errorLines.suffix(5))", sourceLocation: sourceLocation)
        let critical = daemon.errorLines.first { $0.contains("critical") && $0.contains("the state database is unusable") } ?? ""
        #expect(critical.contains(expected), "\(daemon.errorLines.suffix(5))", sourceLocation: sourceLocation)
    }

    @Test func aStateFileDeletedUnderTheDaemonStopsItAndIsNotRecreated() async throws {
        let daemon = try await startDaemon()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: state + suffix) }
        try await expectStopped65(daemon, saying: "deleted")

        let check = try await CommandRunner.run(["check", "--config", "pricewatch.toml", "--state"], in: directory.path)
        #expect(check.status != 0, "check --state passed a lost state: \(check.standardOutput)")
        #expect((check.standardOutput + check.standardError).contains("deleted"), "\(check.standardOutput) \(check.standardError)")
        let alerts = try await CommandRunner.run(["alerts", "--config", "pricewatch.toml"], in: directory.path)
        #expect(alerts.status != 0 && alerts.standardError.contains("deleted"), "\(alerts.standardError)")

        // A new start does not make an empty state in its place.
        let again = try await CommandRunner.run(["run", "--config", "pricewatch.toml", "--log-target", "stderr"], in: directory.path,
                                                timeout: .seconds(30))
        #expect(again.status == 65, "\(again.standardError)")
        #expect(!FileManager.default.fileExists(atPath: state), "a new, empty state was created")
    }

    @Test func aStateFileReplacedUnderTheDaemonStopsIt() async throws {
        let daemon = try await startDaemon()
        // Another file renamed over the path (a restore done while the daemon runs).
        let copy = directory.file("state/other.db")
        try FileManager.default.copyItem(atPath: state, toPath: copy)
        #expect(rename(copy, state) == 0)
        try await expectStopped65(daemon, saying: "replaced")
    }
}
