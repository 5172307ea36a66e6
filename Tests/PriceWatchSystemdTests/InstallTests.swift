import Foundation
import PriceWatchTestKit
import Testing

/// `make install` into a staging directory (DESTDIR), twice, and `make uninstall`.
@Suite struct InstallTests {
    static func make(_ arguments: [String]) async throws -> (status: Int32, output: String, error: String) {
        try await ChildProcess.run("/usr/bin/make", ["-C", RepositoryFiles.root] + arguments, in: RepositoryFiles.root)
    }

    @Test func installTwiceKeepsTheConfigurationAndUninstallKeepsItToo() async throws {
        let stage = try TemporaryDirectory()
        // BINARY: the binary this test run built, instead of a release build.
        let arguments = ["DESTDIR=\(stage.path)", "PREFIX=/opt/pw", "BINARY=\(CommandRunner.executable)"]

        let first = try await Self.make(["install"] + arguments)
        #expect(first.status == 0, "\(first.error)")
        let binary = stage.file("opt/pw/bin/pricewatch")
        #expect(FileManager.default.isExecutableFile(atPath: binary))
        let unit = try String(contentsOfFile: stage.file("etc/systemd/system/pricewatch.service"), encoding: .utf8)
        #expect(unit.contains("\nExecStart=/opt/pw/bin/pricewatch run --config /etc/pricewatch/pricewatch.toml\n"))
        #expect(!unit.contains("/usr/local/bin"))
        let example = try String(contentsOfFile: RepositoryFiles.path("etc/pricewatch/pricewatch.toml"), encoding: .utf8)
        let config = stage.file("etc/pricewatch/pricewatch.toml")
        #expect(try String(contentsOfFile: config, encoding: .utf8) == example)
        #expect(FileManager.default.fileExists(atPath: stage.file("etc/pricewatch/rules.d/10-levels.toml")))
        for credential in ["smtp-password", "webhook-secret"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: stage.file("etc/pricewatch/credentials/\(credential)"))
            #expect(attributes[.size] as? Int == 0)
            #expect(attributes[.posixPermissions] as? Int == 0o600)
        }
        let credentials = try FileManager.default.attributesOfItem(atPath: stage.file("etc/pricewatch/credentials"))
        #expect(credentials[.posixPermissions] as? Int == 0o700)
        #expect(first.output.contains("installed /etc/pricewatch/pricewatch.toml"))
        // The trading calendars, where the lookup order of docs/markets.md finds them.
        let shippedCalendar = try String(contentsOfFile: RepositoryFiles.path("calendars/XNYS.toml"), encoding: .utf8)
        #expect(try String(contentsOfFile: stage.file("opt/pw/share/pricewatch/calendars/XNYS.toml"), encoding: .utf8) == shippedCalendar)

        // The installed binary is the one built, and it checks the installed configuration.
        let check = try await ChildProcess.run(binary, ["check", "--config", stage.file("etc/pricewatch/pricewatch.toml")],
                                               in: stage.path)
        #expect(check.status == 0, "\(check.error)")

        // The operator edits the configuration and a credential, and deletes a rule file.
        try Data("# edited\n".utf8).write(to: URL(fileURLWithPath: config))
        try Data("secret\n".utf8).write(to: URL(fileURLWithPath: stage.file("etc/pricewatch/credentials/smtp-password")))
        try FileManager.default.removeItem(atPath: stage.file("etc/pricewatch/rules.d/20-changes.toml"))

        let second = try await Self.make(["install"] + arguments)
        #expect(second.status == 0, "\(second.error)")
        #expect(try String(contentsOfFile: config, encoding: .utf8) == "# edited\n")
        #expect(try String(contentsOfFile: stage.file("etc/pricewatch/credentials/smtp-password"), encoding: .utf8) == "secret\n")
        #expect(second.output.contains("kept existing /etc/pricewatch/pricewatch.toml"))
        #expect(second.output.contains("kept existing /etc/pricewatch/credentials/smtp-password"))
        // No example file joins an existing configuration (a rule file would start polling).
        #expect(!FileManager.default.fileExists(atPath: stage.file("etc/pricewatch/rules.d/20-changes.toml")))
        #expect(second.output.contains("skipped example /etc/pricewatch/rules.d/20-changes.toml"))
        #expect(!second.output.contains("installed /etc/pricewatch/"))

        let removed = try await Self.make(["uninstall"] + arguments)
        #expect(removed.status == 0, "\(removed.error)")
        #expect(!FileManager.default.fileExists(atPath: binary))
        #expect(!FileManager.default.fileExists(atPath: stage.file("etc/systemd/system/pricewatch.service")))
        #expect(!FileManager.default.fileExists(atPath: stage.file("opt/pw/share/pricewatch/calendars")))
        #expect(try String(contentsOfFile: config, encoding: .utf8) == "# edited\n")
        #expect(removed.output.contains("kept the configuration in /etc/pricewatch"))
    }

    /// PREFIX=/usr is a distribution-style install: the unit goes where a package puts it.
    @Test func prefixUsrPutsTheUnitInLibSystemdSystem() async throws {
        let stage = try TemporaryDirectory()
        let arguments = ["DESTDIR=\(stage.path)", "PREFIX=/usr", "BINARY=\(CommandRunner.executable)"]
        let result = try await Self.make(["install-binary", "install-unit"] + arguments)
        #expect(result.status == 0, "\(result.error)")
        let unit = try String(contentsOfFile: stage.file("lib/systemd/system/pricewatch.service"), encoding: .utf8)
        #expect(unit.contains("\nExecStart=/usr/bin/pricewatch run --config /etc/pricewatch/pricewatch.toml\n"))
        #expect(!FileManager.default.fileExists(atPath: stage.file("etc/systemd/system/pricewatch.service")))
    }
}
