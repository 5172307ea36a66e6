import Foundation
import PriceWatchTestKit
import Synchronization
import Testing

/// The crash test of the outbox with the real binary: a daemon whose webhook receiver is
/// failing and hanging (so deliveries are pending and in flight) is killed with SIGKILL, then
/// started again on the same database with the receiver healthy.
@Suite(.serialized) struct CrashRecoveryTests {
    static let symbols = (0..<10).map { "S\($0)" }

    /// Ten symbols, each crossing 15 twice: 20 alerts over three polls.
    static func writeDaemon(in directory: TemporaryDirectory, hookURL: String) throws {
        try directory.write("pricewatch.toml", """
            state = "state/pricewatch.db"
            interval = "1s"
            [providers.replay]
            type = "replay"
            file = "prices.csv"
            [sinks.hook]
            type = "webhook"
            url = "\(hookURL)"
            timeout = "60s"
            """)
        var rows = ["symbol,time,price"]
        for (minute, price) in ["10", "20", "10"].enumerated() {
            for symbol in symbols { rows.append("\(symbol),\(1_727_875_800 + minute * 60),\(price)") }
        }
        try directory.write("prices.csv", rows.joined(separator: "\n") + "\n")
        let list = symbols.map { "\"\($0)\"" }.joined(separator: ", ")
        try directory.write("rules.d/x.toml", "[[rule]]\nid = \"crosses-15\"\nsymbols = [\(list)]\ncrosses = 15\n")
    }

    /// The alert log as `pricewatch alerts --format json` prints it.
    static func alertLog(_ directory: TemporaryDirectory) async throws -> [[String: Any]] {
        let result = try await CommandRunner.run(["alerts", "--config", "pricewatch.toml", "--format", "json"], in: directory.path)
        guard result.status == 0 else { return [] }
        return result.outputLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    static func statuses(_ log: [[String: Any]]) -> [String] {
        log.flatMap { ($0["deliveries"] as? [[String: Any]]) ?? [] }.compactMap { $0["status"] as? String }
    }

    static func alertID(_ request: RecordedRequest) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])?["id"] as? String
    }

    @Test func aKilledDaemonDeliversEveryAlertAfterRestartWithTheSameIDAndFiresNoneTwice() async throws {
        let receiver = try LoopbackHTTPServer()
        defer { receiver.stop() }
        let healthy = Mutex(false)
        let outageRequests = Mutex(0)
        let answered = Mutex<[String]>([])
        receiver.route("POST", "/hook") { request in
            if healthy.withLock({ $0 }) {
                if let id = Self.alertID(request) { answered.withLock { $0.append(id) } }
                return .status(204)
            }
            // The outage: every third request hangs (held in flight until the kill), the
            // others fail with 503 and are retried later.
            let index = outageRequests.withLock { count in
                defer { count += 1 }
                return count
            }
            return index % 3 == 0 ? .hang : .status(503)
        }
        let directory = try TemporaryDirectory()
        try Self.writeDaemon(in: directory, hookURL: receiver.baseURL + "/hook")

        let first = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path)
        // Every alert fired and is in the outbox; the receiver holds deliveries in flight and
        // has failed others, which wait for their retry.
        try await waitUntil("20 alerts in the log (stderr: \(first.errorLines.suffix(5)))") { try await Self.alertLog(directory).count == 20 }
        try await waitUntil("8 requests during the outage (\(outageRequests.withLock { $0 }))") { outageRequests.withLock { $0 } >= 8 }
        let beforeKill = try await Self.alertLog(directory)
        #expect(Self.statuses(beforeKill).allSatisfy { $0 == "pending" })
        first.signal(SIGKILL)
        #expect(try await first.waitForExit() == SIGKILL, "killed by the signal")
        let outageIDs = Set(receiver.requests.compactMap(Self.alertID))

        // The replay starts again from its first row, so the second daemon sees every row of
        // the first again (repeats: nothing may fire), then one new row that crosses: its
        // alert, the 21st, proves the repeats were all processed.
        let rows = try String(contentsOfFile: directory.file("prices.csv"), encoding: .utf8)
        try directory.write("prices.csv", rows + "S0,\(1_727_875_800 + 3 * 60),20\n")
        healthy.withLock { $0 = true }
        let second = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path)
        try await waitUntil("21 delivered alerts in the log (stderr: \(second.errorLines.suffix(5)))") {
            let log = try await Self.alertLog(directory)
            return log.count == 21 && Self.statuses(log).allSatisfy { $0 == "delivered" }
        }
        #expect(try await second.stop() == 0)
        #expect(second.errorLines.filter { $0.contains("alert fired") }.count == 1, "only the new row fired")

        let log = try await Self.alertLog(directory)
        let ids = log.compactMap { $0["id"] as? String }
        #expect(ids.count == 21)
        #expect(Set(ids).count == 21, "no alert fired twice")
        let firstIDs = Set(beforeKill.compactMap { $0["id"] as? String })
        #expect(firstIDs.isSubset(of: Set(ids)))
        #expect(Set(answered.withLock { $0 }) == Set(ids), "every alert delivered at least once, with its id")
        #expect(outageIDs.isSubset(of: Set(ids)), "the failed and hung requests carried the same ids")
        #expect(!outageIDs.isEmpty)
    }
}
