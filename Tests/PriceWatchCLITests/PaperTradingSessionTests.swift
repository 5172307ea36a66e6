import Foundation
import PriceWatchTestKit
import Testing

/// A scripted paper-trading session with the real binary against the replay provider: market
/// and limit orders, a rejection for lack of cash, a limit that never fills, idempotent
/// retries, and a daemon killed with SIGKILL mid-session and restarted (the replay starts again
/// from its first row) that books nothing twice.
@Suite(.serialized) struct PaperTradingSessionTests {
    static func writeDaemon(in directory: TemporaryDirectory) throws {
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
        // The daemon polls what rules watch: a rule that never fires keeps AAPL polled.
        try directory.write("rules.d/watch.toml", "[[rule]]\nid = \"watch-aapl\"\nsymbol = \"AAPL\"\nabove = 100000\n")
    }

    static func paper(_ arguments: [String], _ directory: TemporaryDirectory) async throws -> CommandRunner.Result {
        try await CommandRunner.run(["paper"] + arguments + ["--config", "pricewatch.toml"], in: directory.path)
    }

    static func show(_ directory: TemporaryDirectory) async throws -> [String: Any] {
        let result = try await paper(["show", "alice", "--format", "json"], directory)
        guard result.status == 0, let data = result.outputLines.first.map({ Data($0.utf8) }),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return object
    }

    static func statuses(_ directory: TemporaryDirectory) async throws -> [String: String] {
        var statuses: [String: String] = [:]
        for order in (try await show(directory)["orders"] as? [[String: Any]]) ?? [] {
            if let id = order["order_id"] as? String, let status = order["status"] as? String { statuses[id] = status }
        }
        return statuses
    }

    @Test func aKilledDaemonBooksNothingTwice() async throws {
        let directory = try TemporaryDirectory()
        try Self.writeDaemon(in: directory)
        let opened = try await Self.paper(["open", "alice", "--cash", "10000", "--currency", "USD", "--fee", "1"], directory)
        #expect(opened.status == 0, "paper open: \(opened.standardError)")
        // A retried open and a retried order book nothing more.
        #expect(try await Self.paper(["open", "alice", "--cash", "10000", "--currency", "USD", "--fee", "1"], directory).status == 0)
        #expect(try await Self.paper(["open", "alice", "--cash", "5", "--currency", "USD"], directory).status == 1)
        for arguments in [["buy", "alice", "AAPL", "10", "--order-id", "m1"],
                          ["buy", "alice", "AAPL", "10", "--order-id", "m1"],
                          ["buy", "alice", "AAPL", "5", "--limit", "1", "--order-id", "never"],
                          ["buy", "alice", "AAPL", "1000", "--order-id", "big"]] {
            let placed = try await Self.paper(arguments, directory)
            #expect(placed.status == 0, "\(arguments): \(placed.standardError)")
        }
        #expect(try await Self.paper(["sell", "alice", "AAPL", "3", "--order-id", "m1"], directory).status == 1,
                      "an order id is used for one order only")

        let first = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path)
        try await waitUntil("m1 filled and big rejected (stderr: \(first.errorLines.suffix(5)))") {
            let statuses = try await Self.statuses(directory)
            return statuses["m1"] == "filled" && statuses["big"] == "rejected"
        }
        first.signal(SIGKILL)
        #expect(try await first.waitForExit() == SIGKILL, "killed by the signal")

        let second = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path)
        // An order placed after the restart fills: the restarted daemon has polled (replaying
        // the quotes that filled m1) by the time it does.
        #expect(try await Self.paper(["sell", "alice", "AAPL", "4", "--order-id", "s1"], directory).status == 0)
        try await waitUntil("s1 filled after the restart (stderr: \(second.errorLines.suffix(5)))") {
            try await Self.statuses(directory)["s1"] == "filled"
        }
        #expect(try await second.stop() == 0)

        #expect(try await Self.paper(["buy", "alice", "AAPL", "1", "--limit", "1", "--order-id", "c1"], directory).status == 0)
        #expect(try await Self.paper(["cancel", "alice", "c1"], directory).status == 0)
        #expect(try await Self.paper(["cancel", "alice", "c1"], directory).status == 0, "a retried cancel")
        #expect(try await Self.paper(["cancel", "alice", "m1"], directory).status == 1, "a filled order cannot be cancelled")
        let statuses = try await Self.statuses(directory)
        #expect(statuses == ["m1": "filled", "never": "open", "big": "rejected", "s1": "filled", "c1": "cancelled"])
        let statement = try await Self.show(directory)
        let positions = (statement["positions"] as? [[String: Any]]) ?? []
        #expect(positions.count == 1)
        #expect((positions.first?["quantity"] as? NSNumber)?.intValue == 6, "10 bought once, 4 sold: \(positions)")
        let fees = (statement["fees_paid"] as? NSNumber)?.intValue
        #expect(fees == 2, "two fills of 1 each")
        let history = try await Self.paper(["history", "alice", "--format", "json"], directory)
        #expect(history.status == 0, "paper history: \(history.standardError)")
        #expect(history.standardOutput.contains("\"period\":\"ALL\""))
        let check = try await Self.paper(["check"], directory)
        #expect(check.status == 0, "paper check: \(check.standardOutput) \(check.standardError)")
        #expect(check.outputLines.last == "1 paper account(s) checked, 0 problem(s)")
        let board = try await Self.paper(["leaderboard", "--format", "csv"], directory)
        #expect(board.status == 0)
        // CSV lines end in CRLF.
        #expect(board.standardOutput.hasSuffix("\r\n"))
        let rows = board.standardOutput.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(rows.count == 2, "\(rows)")
        #expect(rows.first?.hasPrefix("rank,account,") == true)
        #expect(rows.last?.hasPrefix("1,alice,USD,") == true)
    }
}
