import Foundation
import PriceWatchTestKit
import Testing

/// `pricewatch check` outside systemd on a configuration naming `{ credential = "NAME" }`:
/// the credentials come from `--credentials-directory`, or (run by root) from the files the
/// installed unit's `LoadCredential=` lines name. `SYSTEMD_UNIT_PATH` points the binary at a
/// unit directory of the test's own, as it points systemd.
@Suite struct CheckCredentialsTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
        try directory.write("pricewatch.toml", """
            [providers.finnhub]
            type = "finnhub"
            api_key = { credential = "finnhub-key" }
            [sinks.console]
            type = "stdout"
            """)
        try directory.write("rules.d/a.toml", "[[rule]]\nid = \"a\"\nsymbol = \"AAPL\"\nabove = 200\n")
        try directory.write("credentials/finnhub-key", "not-a-real-key\n")
        try directory.write("units/empty/README", "no unit here\n")
    }

    func check(_ extra: [String] = [], environment: [String: String] = [:]) async throws -> CommandRunner.Result {
        var env = environment
        env["CREDENTIALS_DIRECTORY"] = env["CREDENTIALS_DIRECTORY"] ?? ""
        return try await CommandRunner.run(["check", "--config", "pricewatch.toml"] + extra, in: directory.path, environment: env)
    }

    static var isRoot: Bool { geteuid() == 0 }

    @Test func theCredentialsDirectoryOptionProvidesTheCredential() async throws {
        let result = try await check(["--credentials-directory", directory.file("credentials")],
                                     environment: ["SYSTEMD_UNIT_PATH": directory.file("units/empty")])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines == ["pricewatch.toml: ok: 1 rule on 1 symbol, 1 provider, 1 sink"])
        #expect(!result.standardOutput.contains("not-a-real-key") && !result.standardError.contains("not-a-real-key"))
    }

    @Test func aMissingCredentialInTheGivenDirectoryIsAnErrorNamingIt() async throws {
        try directory.write("other/README", "empty\n")
        let result = try await check(["--credentials-directory", directory.file("other")])
        #expect(result.status == 1)
        #expect(result.standardError.contains("credential 'finnhub-key'"), "\(result.standardError)")
        #expect(result.standardError.contains(directory.file("other/finnhub-key")), "\(result.standardError)")
    }

    @Test(.enabled(if: isRoot, "reading the unit's credentials is for root"))
    func rootReadsTheDirectoryOfTheInstalledUnitsLoadCredentialLines() async throws {
        try directory.write("units/with/pricewatch.service", """
            [Unit]
            Description=test
            [Service]
            ExecStart=/usr/bin/pricewatch run
            LoadCredential=finnhub-key:\(directory.file("credentials/finnhub-key"))
            LoadCredential=smtp-password:\(directory.file("credentials/smtp-password"))
            """)
        let result = try await check(environment: ["SYSTEMD_UNIT_PATH": directory.file("units/with")])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines == ["pricewatch.toml: ok: 1 rule on 1 symbol, 1 provider, 1 sink"])
    }

    /// Credentials from files that are not `DIR/NAME` of one directory (a drop-in moved one):
    /// they are linked into a private directory, removed when the command ends.
    @Test(.enabled(if: isRoot, "reading the unit's credentials is for root"))
    func rootFollowsADropInThatMovesOneCredential() async throws {
        try directory.write("units/with/pricewatch.service", """
            [Service]
            LoadCredential=finnhub-key:/nonexistent/finnhub-key
            """)
        try directory.write("elsewhere/key.txt", "another-key\n")
        try directory.write("units/with/pricewatch.service.d/50-key.conf", """
            [Service]
            LoadCredential=finnhub-key:\(directory.file("elsewhere/key.txt"))
            """)
        let before = try Set(FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()))
        let result = try await check(environment: ["SYSTEMD_UNIT_PATH": directory.file("units/with")])
        #expect(result.status == 0, "\(result.standardError)")
        let after = try Set(FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()))
        #expect(after.subtracting(before).filter { $0.hasPrefix("pricewatch-credentials.") }.isEmpty)
    }

    @Test(.enabled(if: isRoot, "reading the unit's credentials is for root"))
    func aCredentialTheUnitDoesNotLoadIsStillAnError() async throws {
        try directory.write("units/with/pricewatch.service", """
            [Service]
            LoadCredential=smtp-password:\(directory.file("other/smtp-password"))
            """)
        let result = try await check(environment: ["SYSTEMD_UNIT_PATH": directory.file("units/with")])
        #expect(result.status == 1)
        #expect(result.standardError.contains("credential 'finnhub-key'"), "\(result.standardError)")
    }
}
