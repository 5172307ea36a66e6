import Foundation
import PriceWatchSystemd
import PriceWatchTestKit
import Testing

/// `--log-target auto` picks the journal only when standard error is the journal stream
/// `JOURNAL_STREAM` names.
@Suite struct LogTargetTests {
    /// `DEVICE:INODE` of this process's standard error, as systemd would write it.
    static func standardErrorIdentity() throws -> String {
        var status = stat()
        try #require(fstat(STDERR_FILENO, &status) == 0)
        return "\(status.st_dev):\(status.st_ino)"
    }

    @Test func standardErrorIsTheJournalOnlyWhenJournalStreamNamesIt() throws {
        let identity = try Self.standardErrorIdentity()
        #expect(SystemdEnvironment.standardErrorIsJournal(["JOURNAL_STREAM": identity]))
        #expect(LogTarget.auto.usesJournal(environment: ["JOURNAL_STREAM": identity]))
        for other in ["", "1:1", identity + "1", "x:y", identity + ":1", "\(identity.split(separator: ":")[0])"] {
            #expect(!SystemdEnvironment.standardErrorIsJournal(["JOURNAL_STREAM": other]), "\(other)")
        }
        #expect(!LogTarget.auto.usesJournal(environment: [:]))
        #expect(LogTarget.journal.usesJournal(environment: [:]))
        #expect(!LogTarget.stderr.usesJournal(environment: ["JOURNAL_STREAM": identity]))
    }

    /// An inherited `JOURNAL_STREAM` whose stream is not standard error (a child whose output
    /// was redirected): plain lines, and no attempt at the journal.
    @Test func aStaleJournalStreamLeavesTheLinesOnStandardError() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("pricewatch.toml", "[providers.p]\ntype = \"nope\"\n")
        let result = try await CommandRunner.run(["run", "--config", "pricewatch.toml"], in: directory.path,
                                                 environment: ["JOURNAL_STREAM": "1:1"])
        #expect(result.status == 78)
        #expect(result.errorLines.contains { $0.contains(" critical pricewatch: ") && $0.contains("invalid configuration in pricewatch.toml; not starting") },
                "\(result.errorLines)")
        #expect(result.errorLines.contains { $0.contains("event=configuration-rejected") })
        #expect(!result.standardError.contains("cannot write to the journal"))
    }
}
