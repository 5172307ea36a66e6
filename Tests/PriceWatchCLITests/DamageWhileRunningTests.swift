import Foundation
import PriceWatchTestKit
import Testing

/// Issue 29, item 3: damage found while the daemon runs must stop it (exit 65), whichever part
/// of the daemon reads the damaged page. The paper-fill consumer and the silence gate were
/// handed the raw store instead of the fault-watching decorator, so the damage they found was
/// logged and the daemon ran on; now the store reports damage itself. Each test damages one table's page of the state file under the running
/// binary: a page the daemon never writes, written before it started (so it is in the main file,
/// not in the write-ahead log), and read again at every poll or dispatch (every commit of a poll
/// empties the readers' page caches).
@Suite(.serialized) struct DamageWhileRunningTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
        try directory.write("pricewatch.toml", """
            state = "state/pricewatch.db"
            interval = "1s"
            [providers.replay]
            type = "replay"
            file = "prices.csv"
            [sinks.out]
            type = "stdout"
            """)
        var rows = ["symbol,time,price"]
        for minute in 0..<600 { rows.append("AAPL,\(1_727_875_800 + minute * 60),\(190 + minute % 7).5") }
        try directory.write("prices.csv", rows.joined(separator: "\n") + "\n")
        try directory.write("rules.d/watch.toml", "[[rule]]\nid = \"watch-aapl\"\nsymbol = \"AAPL\"\ncrosses = 193\n")
    }

    func run(_ arguments: [String]) async throws -> CommandRunner.Result {
        try await CommandRunner.run(arguments + ["--config", "pricewatch.toml"], in: directory.path)
    }

    func damage(table: String) async throws {
        try await StateFileSurgery.damage(table: table, of: directory.file("state/pricewatch.db"))
    }

    func checkpoint() async throws {
        try await StateFileSurgery.checkpoint(directory.file("state/pricewatch.db"))
    }

    func expectExit65(_ daemon: RunningDaemon, after what: String) async throws {
        let status = try await daemon.waitForExit(timeout: .seconds(30))
        #expect(status == 65, "\(what): \(daemon.errorLines.suffix(5))")
        #expect(daemon.errorLines.contains { $0.contains("the state database is unusable; pricewatch stops (exit status 65)") },
                "\(daemon.errorLines.suffix(5))")
    }

    @Test func damageFoundByThePaperFillsStopsTheDaemon() async throws {
        // A state with an account and an order that never fills (read at every poll).
        try #require(try await run(["paper", "open", "alice", "--cash", "10000", "--currency", "USD"]).status == 0)
        try #require(try await run(["paper", "buy", "alice", "AAPL", "5", "--limit", "1", "--order-id", "never"]).status == 0)
        try await checkpoint()
        let daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml", "--log-target", "stderr"], directory: directory.path)
        try await daemon.waitForOutput("a first alert") { !$0.isEmpty }
        try await damage(table: "paper_order")
        try await expectExit65(daemon, after: "damage in paper_order")
    }

    @Test func damageFoundByTheSilenceGateStopsTheDaemon() async throws {
        // The state exists once the daemon ran; a silence of another rule gives the gate a generation to read.
        let first = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml", "--log-target", "stderr"], directory: directory.path)
        try await first.waitForOutput("a first alert") { !$0.isEmpty }
        #expect(try await first.stop() == 0)
        try #require(try await run(["silence", "add", "--rule", "other", "--for", "1h", "--force"]).status == 0)
        try await checkpoint()
        let daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml", "--log-target", "stderr"], directory: directory.path)
        try await daemon.waitForOutput("a first alert") { !$0.isEmpty }
        try await damage(table: "silence_generation")
        try await expectExit65(daemon, after: "damage in silence_generation")
    }
}
