import Foundation
import PriceWatchTestKit
import Testing

/// Faults under a daemon that delivers to a real webhook receiver (loopback), in turn: its state
/// file deleted, damaged under a reader, and, for a full disk, `FullDiskTests`. After each the
/// daemon stops with 65, a new start refuses the state, and the receiver got no alert twice.
@Suite(.serialized) struct FaultInjectionTests {
    let directory: TemporaryDirectory
    let receiver: LoopbackHTTPServer

    init() throws {
        directory = try TemporaryDirectory()
        receiver = try LoopbackHTTPServer()
        receiver.route("POST", "/hook") { _ in .status(200) }
        try directory.write("pricewatch.toml", """
            state = "state/pricewatch.db"
            interval = "1s"
            [providers.replay]
            type = "replay"
            file = "prices.csv"
            [sinks.hook]
            type = "webhook"
            url = "\(receiver.baseURL)/hook"
            format = "json"
            """)
        // X crosses 15 at every quote: an alert a second.
        let rows = (0..<600).map { "X,\(1_727_875_800 + $0 * 60),\($0 % 2 == 0 ? "10" : "20")" }
        try directory.write("prices.csv", (["symbol,time,price"] + rows).joined(separator: "\n") + "\n")
        try directory.write("rules.d/x.toml", ReplayDaemonFiles.crossingRule)
    }

    var state: String { directory.file("state/pricewatch.db") }

    /// The alert ids the receiver got, in arrival order.
    func delivered() -> [String] {
        receiver.requests(path: "/hook").compactMap { request in
            (try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])?["id"] as? String
        }
    }

    func start() throws -> RunningDaemon {
        try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml", "--log-target", "stderr"], directory: directory.path)
    }

    func waitForDeliveries(_ count: Int) async throws {
        try await waitUntil("\(count) alerts delivered to the receiver (so far \(delivered().count))") { delivered().count >= count }
    }

    /// The daemon stopped with 65, a second start refuses the state with 65 and delivers
    /// nothing, and no alert reached the receiver twice.
    func expectStoppedAndRefused(_ daemon: RunningDaemon, fault: String) async throws {
        let status = try await daemon.waitForExit(timeout: .seconds(30))
        #expect(status == 65, "\(fault): \(daemon.errorLines.suffix(5))")
        let before = delivered()
        let again = try await CommandRunner.run(["run", "--config", "pricewatch.toml", "--log-target", "stderr"], in: directory.path,
                                                timeout: .seconds(30))
        #expect(again.status == 65, "\(fault): a new start: \(again.standardError)")
        #expect(delivered() == before, "\(fault): the refused start delivered something")
        #expect(Set(before).count == before.count, "\(fault): an alert was delivered twice: \(before)")
        #expect(before.count >= 3)
    }

    @Test func aDeletedStateFileStopsTheDaemonAndIsNeverStartedAfresh() async throws {
        let daemon = try start()
        try await waitForDeliveries(3)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: state + suffix) }
        try await expectStoppedAndRefused(daemon, fault: "deleted")
    }

    @Test func aReplacedStateFileStopsTheDaemonAndIsNotUsedUntilTheOperatorSaysSo() async throws {
        let daemon = try start()
        try await waitForDeliveries(2)
        // A copy taken now and renamed over the file later is older than what the daemon
        // wrote since: used as it is, it would deliver those alerts again.
        let copy = directory.file("state/backup.db")
        try await StateFileSurgery.checkpoint(state, whileOpen: true)
        try FileManager.default.copyItem(atPath: state, toPath: copy)
        let count = delivered().count
        try await waitForDeliveries(count + 2)
        #expect(rename(copy, state) == 0)
        try await expectStoppedAndRefused(daemon, fault: "replaced")
        let refused = try await CommandRunner.run(["run", "--config", "pricewatch.toml", "--log-target", "stderr"], in: directory.path,
                                                  timeout: .seconds(30))
        #expect(refused.standardError.contains("delete \(state).replaced"), "\(refused.standardError)")
    }

    @Test func aDamagedStateFileStopsTheDaemonAndIsRefusedAtTheNextStart() async throws {
        // A first run makes the state and a silence of another rule (read at every dispatch);
        // the log is checkpointed so the page damaged later is read from the main file.
        let first = try start()
        try await waitForDeliveries(2)
        #expect(try await first.stop() == 0)
        let silence = try await CommandRunner.run(["silence", "add", "--rule", "other", "--for", "1h", "--force",
                                                   "--config", "pricewatch.toml"], in: directory.path)
        try #require(silence.status == 0, "\(silence.standardError)")
        try await StateFileSurgery.checkpoint(state)
        let daemon = try start()
        let count = delivered().count
        try await waitForDeliveries(count + 1)
        try await StateFileSurgery.damage(table: "silence_generation", of: state)
        try await expectStoppedAndRefused(daemon, fault: "damaged")
    }
}
