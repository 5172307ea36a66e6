import Foundation
import PriceWatchTestKit
import Testing

/// `systemd/pricewatch.service` as systemd itself judges it (`systemd-analyze`, systemd 252).
@Suite struct UnitFileTests {
    static let unit = RepositoryFiles.path("systemd/pricewatch.service")

    /// A copy of the unit whose ExecStart names the built binary (verify checks that it
    /// exists and is executable), as `pricewatch.service` in a fresh directory.
    static func unitForBuiltBinary() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        let text = try String(contentsOfFile: unit, encoding: .utf8)
        #expect(text.contains("ExecStart=/usr/local/bin/pricewatch run "))
        try directory.write("pricewatch.service", text.replacingOccurrences(of: "/usr/local/bin/pricewatch", with: CommandRunner.executable))
        return directory
    }

    @Test func verifyPrintsNothing() async throws {
        let directory = try Self.unitForBuiltBinary()
        let result = try await ChildProcess.run("/usr/bin/systemd-analyze", ["verify", directory.file("pricewatch.service")],
                                                in: directory.path)
        #expect(result.status == 0)
        #expect(result.output.isEmpty && result.error.isEmpty, "\(result.output)\(result.error)")
    }

    /// The socket unit for the HTTP endpoint, beside the service it activates.
    @Test func theSocketUnitVerifiesBesideTheService() async throws {
        let directory = try Self.unitForBuiltBinary()
        let socket = try String(contentsOfFile: RepositoryFiles.path("systemd/pricewatch-http.socket"), encoding: .utf8)
        for setting in ["FileDescriptorName=http", "Service=pricewatch.service", "ListenStream=127.0.0.1:8490"] {
            #expect(socket.split(separator: "\n").contains { $0 == setting }, "missing \(setting)")
        }
        try directory.write("pricewatch-http.socket", socket)
        let result = try await ChildProcess.run("/usr/bin/systemd-analyze", ["verify", directory.file("pricewatch-http.socket")],
                                                in: directory.path)
        #expect(result.status == 0)
        #expect(result.output.isEmpty && result.error.isEmpty, "\(result.output)\(result.error)")
    }

    @Test func theSandboxIsRatedAtMostOnePointFive() async throws {
        let directory = try Self.unitForBuiltBinary()
        let result = try await ChildProcess.run("/usr/bin/systemd-analyze",
                                                ["security", "--offline=yes", "--no-pager", directory.file("pricewatch.service")],
                                                in: directory.path)
        #expect(result.status == 0, "\(result.error)")
        // "→ Overall exposure level for pricewatch.service: 1.2 OK 🙂"
        let line = try #require(result.output.split(separator: "\n").first { $0.contains("Overall exposure level") })
        let words = line.split(separator: ":").last?.split(separator: " ") ?? []
        let exposure = try #require(words.first.flatMap { Double($0) }, "\(line)")
        #expect(exposure <= 1.5, "\(result.output)")
    }

    @Test func theUnitHasWhatTheServiceNeeds() throws {
        let lines = try String(contentsOfFile: Self.unit, encoding: .utf8).split(separator: "\n").map(String.init)
        for setting in ["Type=notify", "NotifyAccess=main", "ExecReload=/bin/kill -HUP $MAINPID", "Restart=on-failure",
                        "RestartPreventExitStatus=78", "WatchdogSec=60s", "DynamicUser=yes", "StateDirectory=pricewatch",
                        "ConfigurationDirectory=pricewatch", "MemoryDenyWriteExecute=yes",
                        "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6",
                        "LoadCredential=smtp-password:/etc/pricewatch/credentials/smtp-password",
                        "LoadCredential=webhook-secret:/etc/pricewatch/credentials/webhook-secret",
                        "LoadCredential=portfolios:/etc/pricewatch/portfolios.d"] {
            #expect(lines.contains(setting), "missing \(setting)")
        }
        // libdispatch calls setpriority(): @resources must stay allowed.
        #expect(!lines.contains { $0.hasPrefix("SystemCallFilter=") && $0.contains("@resources") })
    }
}
