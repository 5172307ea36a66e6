import Foundation
import PriceWatchTestKit
import Testing

/// `pricewatch run` over a state database it cannot use: it stops at once with exit status 65,
/// says why on standard error (the journal under systemd) and in `STATUS=`, and the unit does
/// not restart it (`RestartPreventExitStatus=65`).
@Suite(.serialized) struct UnusableStateTests {
    /// A SQLite file with many pages (made by the `sqlite3` shell), then one page of garbage in
    /// the middle: the first pages, with the schema, are intact.
    static func damagedDatabase(at path: String) async throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let made = try await ChildProcess.run("/usr/bin/sqlite3", [path, """
            CREATE TABLE filler (x BLOB);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4000)
            INSERT INTO filler SELECT randomblob(200) FROM n;
            """], in: "/")
        try #require(made.status == 0, "sqlite3: \(made.error)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: UInt64(size / 4096 / 2 * 4096))
        try handle.write(contentsOf: Data(repeating: 0x5A, count: 4096))
        try handle.close()
    }

    func runExpectingExit65(_ demo: DemoDaemon, messageContains expected: String) async throws {
        let socket = try NotifySocket(path: demo.directory.file("notify.sock"))
        defer { socket.close() }
        let daemon = try ChildProcess(CommandRunner.executable, ["run", "--config", "pricewatch.toml", "--log-target", "stderr"],
                                      in: demo.path, environment: ["NOTIFY_SOCKET": socket.path], removing: ["JOURNAL_STREAM"])
        #expect(try await daemon.waitForExit() == 65, "\(daemon.errorOutput)")
        #expect(daemon.errorOutput.contains("the state database is unusable; pricewatch stops (exit status 65)"), "\(daemon.errorOutput)")
        #expect(daemon.errorOutput.contains(expected), "\(daemon.errorOutput)")
        try await socket.waitFor("STATUS=stopped: state database … (messages: \(socket.messages))") {
            $0.contains { $0.hasPrefix("STATUS=stopped: state database ") }
        }
        #expect(!socket.messages.contains("READY=1"), "never reported ready: \(socket.messages)")
    }

    @Test func aDamagedStateStopsTheDaemonWith65() async throws {
        let demo = try DemoDaemon()
        try await Self.damagedDatabase(at: demo.directory.file("state/pricewatch.db"))
        try await runExpectingExit65(demo, messageContains: "the file is damaged")
    }

    @Test func anEmptiedStateStopsTheDaemonWith65() async throws {
        let demo = try DemoDaemon()
        try demo.directory.write("state/pricewatch.db", "")
        try await runExpectingExit65(demo, messageContains: "the file is empty (0 bytes)")
    }

    /// Issue 29, item 4: a SQLite file of another program at the state path (only a
    /// `customers` table) was taken over: pricewatch added its tables beside it. It is refused
    /// with 65 and left exactly as it was, and `check --state` says it is not pricewatch's.
    @Test func aForeignDatabaseIsRefusedWith65AndLeftUntouched() async throws {
        let demo = try DemoDaemon()
        let path = demo.directory.file("state/pricewatch.db")
        try FileManager.default.createDirectory(atPath: demo.directory.file("state"), withIntermediateDirectories: true)
        let made = try await ChildProcess.run("/usr/bin/sqlite3", [path, """
            CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT);
            INSERT INTO customers (name) VALUES ('Ada'), ('Grace');
            """], in: "/")
        try #require(made.status == 0, "sqlite3: \(made.error)")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        try await runExpectingExit65(demo, messageContains: "not a pricewatch state database")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the file was changed")
        let tables = try await ChildProcess.run("/usr/bin/sqlite3", [path, ".tables"], in: "/")
        #expect(tables.output.trimmingCharacters(in: .whitespacesAndNewlines) == "customers", "\(tables.output)")
        let check = try await CommandRunner.run(["check", "--config", "pricewatch.toml", "--state"], in: demo.path)
        #expect(check.status == 1, "\(check.standardOutput) \(check.standardError)")
        #expect((check.standardOutput + check.standardError).contains("not a pricewatch state database"),
                "\(check.standardOutput) \(check.standardError)")
    }

    @Test func theUnitDoesNotRestartOn65() throws {
        let lines = try String(contentsOfFile: UnitFileTests.unit, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.contains("RestartPreventExitStatus=65"))
        #expect(lines.contains("RestartPreventExitStatus=78"))
    }
}
