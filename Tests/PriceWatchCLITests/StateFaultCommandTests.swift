import Foundation
import PriceWatchCore
import PriceWatchStore
import PriceWatchTestKit
import Testing

/// The state database's faults from the operator's side: `check --state`, `alerts --status
/// dead`, `requeue` (also into a running daemon), and `alerts` on a read-only file system.
@Suite(.serialized) struct StateFaultCommandTests {
    static func now() -> Timestamp {
        Timestamp(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// The configuration and alerts of `AlertsCommandTests` (id-now is dead for `ops` and `gone`).
    static func seeded() async throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try AlertsCommandTests.writeConfiguration(in: directory)
        try await AlertsCommandTests.seed(directory.file("state/pricewatch.db"), now: Self.now())
        return directory
    }

    /// Runs a program other than `pricewatch` to its end.
    struct Ran {
        var status: Int32
        var standardOutput: String
        var standardError: String
        var outputLines: [String] { standardOutput.split(separator: "\n").map(String.init) }
    }

    static func run(_ program: String, _ arguments: [String]) throws -> Ran {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let directory = try TemporaryDirectory()
        let outputPath = directory.file("stdout"), errorPath = directory.file("stderr")
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return Ran(status: process.terminationStatus,
                   standardOutput: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "",
                   standardError: (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "")
    }

    @Test func checkStateReportsAHealthyADamagedAndAnEmptiedFile() async throws {
        let directory = try await Self.seeded()
        let path = directory.file("state/pricewatch.db")
        let healthy = try await CommandRunner.run(["check", "--state", "--config", "pricewatch.toml"], in: directory.path)
        #expect(healthy.status == 0, "\(healthy.standardError)")
        #expect(healthy.outputLines.contains("state database \(path): ok: 3 alert(s), 1 pending, 2 dead deliveries, 0 quote(s)"),
                "\(healthy.standardOutput)")

        // Many quotes, so the middle of the file is table pages, then one page of garbage there.
        let store = try SQLiteAlertStore.open(path: path)
        let quotes = (0..<4_000).map { Quote(symbol: "AAPL", price: ExactDecimal(scaled: 100_000_000), time: Timestamp(seconds: Int64($0))) }
        try await store.commit(StoreCommit(provider: "replay", quotes: quotes, now: Self.now()))
        try store.close()
        // Every page in the main file, none left in the write-ahead log (the sqlite3 shell).
        let sqlite = try Self.run("/usr/bin/sqlite3", [path, "PRAGMA wal_checkpoint(TRUNCATE);"])
        try #require(sqlite.status == 0, "\(sqlite.standardError)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: UInt64(size / 4096 / 2 * 4096))
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 4096))
        try handle.close()
        let damaged = try await CommandRunner.run(["check", "--state", "--config", "pricewatch.toml"], in: directory.path)
        #expect(damaged.status == 1)
        #expect(damaged.errorLines.contains { $0.hasPrefix("error: state database \(path): ") && $0.contains("the file is damaged") },
                "\(damaged.standardError)")

        try Data().write(to: URL(fileURLWithPath: path))
        let emptied = try await CommandRunner.run(["check", "--state", "--config", "pricewatch.toml"], in: directory.path)
        #expect(emptied.status == 1)
        #expect(emptied.errorLines.contains { $0.contains("the file is empty (0 bytes)") }, "\(emptied.standardError)")

        // Deleted beside the marker pricewatch wrote when it first opened it: a lost state.
        try FileManager.default.removeItem(atPath: path)
        let deleted = try await CommandRunner.run(["check", "--state", "--config", "pricewatch.toml"], in: directory.path)
        #expect(deleted.status == 1)
        #expect(deleted.errorLines.contains { $0.contains("the file was deleted") }, "\(deleted.standardError)")
        try FileManager.default.removeItem(atPath: path + ".marker")
        let absent = try await CommandRunner.run(["check", "--state", "--config", "pricewatch.toml"], in: directory.path)
        #expect(absent.status == 0)
        #expect(absent.outputLines.contains { $0.hasSuffix("not created yet (the daemon creates it at its first start)") })
        #expect(!FileManager.default.fileExists(atPath: path), "check never creates the state")
    }

    @Test func deadLettersAreListedAndRequeuedWithTheirIDs() async throws {
        let directory = try await Self.seeded()
        let dead = try await CommandRunner.run(["alerts", "--status", "dead", "--config", "pricewatch.toml", "--format", "json"], in: directory.path)
        #expect(dead.status == 0, "\(dead.standardError)")
        #expect(dead.outputLines.count == 1 && dead.standardOutput.contains("\"id\":\"id-now\""), "\(dead.standardOutput)")
        #expect(dead.standardOutput.contains("\"sink\":\"ops\"") && dead.standardOutput.contains("\"sink\":\"gone\""))

        let none = try await CommandRunner.run(["requeue", "--config", "pricewatch.toml"], in: directory.path)
        #expect(none.status == 64, "a selection is required")
        let requeued = try await CommandRunner.run(["requeue", "--sink", "ops", "--config", "pricewatch.toml"], in: directory.path)
        #expect(requeued.status == 0, "\(requeued.standardError)")
        #expect(requeued.outputLines.first?.hasPrefix("re-queued id-now to stdout/ops (") == true, "\(requeued.standardOutput)")
        #expect(requeued.outputLines.last == "1 dead delivery re-queued")

        let after = try await CommandRunner.run(["alerts", "--config", "pricewatch.toml", "--format", "json"], in: directory.path)
        let line = try #require(after.outputLines.first { $0.contains("\"id\":\"id-now\"") })
        #expect(line.contains("{\"sink\":\"ops\",\"identity\":\"stdout/ops\",\"status\":\"pending\",\"attempts\":0"), "\(line)")
        #expect(line.contains("\"sink\":\"gone\",\"identity\":null,\"status\":\"dead\""), "\(line)")

        let again = try await CommandRunner.run(["requeue", "--sink", "ops", "--config", "pricewatch.toml"], in: directory.path)
        #expect(again.status == 1)
        #expect(again.errorLines == ["no dead delivery matches"])
    }

    /// A running daemon sends a re-queued dead letter within its outbox recheck (5 s), with the
    /// alert's id, though nothing else happens to wake its dispatcher (the prices never cross).
    @Test func aRunningDaemonSendsARequeuedDeadLetter() async throws {
        let directory = try TemporaryDirectory()
        try RunCommandTests.writeDaemon(in: directory, prices: ["10", "10", "10"])
        let path = directory.file("state/pricewatch.db")
        let store = try SQLiteAlertStore.open(path: path)
        let alert = AlertsCommandTests.alert("id-dead-letter", time: Self.now())
        try await store.commit(StoreCommit(provider: "replay", alerts: [PendingAlert(alert: alert, sinks: ["out"])], now: Self.now()))
        try await store.recordAttempt(DeliveryOutcome(notificationID: "id-dead-letter", sink: "out", at: Self.now(), result: .dead(error: "HTTP 404")))
        try store.close()

        let daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path)
        // Its dispatcher has looked at the outbox (nothing due) once it is started.
        try await waitUntil("the daemon to start: \(daemon.errorLines)") {
            daemon.errorLines.contains { $0.contains("pricewatch started") }
        }
        let requeued = try await CommandRunner.run(["requeue", "--alert", "id-dead-letter", "--config", "pricewatch.toml"], in: directory.path)
        #expect(requeued.status == 0, "\(requeued.standardError)")
        try await daemon.waitForOutput("the re-queued delivery id-dead-letter") {
            $0.contains { $0.contains("\"id\":\"id-dead-letter\"") }
        }
        #expect(try await daemon.stop() == 0)
        let after = try await CommandRunner.run(["alerts", "--config", "pricewatch.toml"], in: directory.path)
        #expect(after.outputLines.contains { $0.hasPrefix("  stdout/out: delivered ") }, "\(after.standardOutput)")
    }

    /// `alerts` on a real read-only mount (a read-only bind mount in a private mount namespace):
    /// no `-shm` can be created there, and the command still reads the log.
    @Test(.enabled(if: getuid() == 0, "needs root for a private mount namespace"))
    func alertsWorksOnAReadOnlyFileSystem() async throws {
        let directory = try await Self.seeded()
        let path = directory.file("state/pricewatch.db")
        // As a cleanly stopped daemon leaves it: everything in the main file, no -wal, no -shm.
        let checkpoint = try Self.run("/usr/bin/sqlite3", [path, "PRAGMA wal_checkpoint(TRUNCATE);"])
        try #require(checkpoint.status == 0, "\(checkpoint.standardError)")
        try #require(!FileManager.default.fileExists(atPath: path + "-wal") && !FileManager.default.fileExists(atPath: path + "-shm"))
        let executable = CommandRunner.executable
        let script = """
            set -e
            mount --bind "$1" "$1"
            mount -o remount,bind,ro "$1"
            if touch "$1/state/probe" 2>/dev/null; then echo "the mount is writable" >&2; exit 3; fi
            exec "$2" alerts --config "$1/pricewatch.toml"
            """
        let result = try Self.run("/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/sh", "-c", script,
                                                      "sh", directory.path, executable])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines.filter { $0.hasSuffix("[id-now]") || $0.hasSuffix("[id-hour]") || $0.hasSuffix("[id-old]") }.count == 3,
                "\(result.standardOutput)")
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
    }
}
