import Foundation
import PriceWatchCore
import PriceWatchStore
import PriceWatchTestKit
import Testing

/// `pricewatch alerts` end to end: the built binary over a state database seeded through the
/// store (every delivery state), and next to a running daemon.
@Suite(.serialized) struct AlertsCommandTests {
    /// A main file naming `state/pricewatch.db`, with a webhook-like and a stdout sink.
    static func writeConfiguration(in directory: TemporaryDirectory) throws {
        try directory.write("pricewatch.toml", """
            state = "state/pricewatch.db"
            [providers.replay]
            type = "replay"
            file = "prices.csv"
            [sinks.out]
            type = "stdout"
            [sinks.ops]
            type = "stdout"
            format = "json"
            # The secret of another sink is not read by `alerts`: this one cannot be resolved here.
            """)
        try directory.write("prices.csv", "symbol,time,price\nAAPL,2024-10-02,225.70\n")
        try directory.write("rules.d/a.toml", "[[rule]]\nid = \"aapl-200\"\nsymbol = \"AAPL\"\nabove = 200\n")
    }

    static func alert(_ id: String, time: Timestamp, percent: Bool = false) -> Alert {
        Alert(id: id, rule: percent ? "aapl-fall" : "aapl-200", symbol: "AAPL", provider: "replay",
              condition: percent ? "fall 3% from previous close" : "above 200",
              price: ExactDecimal(scaled: 22_570_000_000), currency: "USD", time: time,
              base: percent ? ExactDecimal(scaled: 23_300_000_000) : nil,
              change: percent ? ExactDecimal(scaled: -313_304_721) : nil, direction: nil,
              message: "AAPL at 225.70")
    }

    /// Three alerts: one old (two days ago) and delivered; one an hour ago, delivered to `out`
    /// and pending for `ops` after two failures; one now, dead for `ops` and for a sink the
    /// configuration no longer has.
    static func seed(_ path: String, now: Timestamp) async throws {
        let store = try SQLiteAlertStore.open(path: path)
        let old = Timestamp(milliseconds: now.milliseconds - 2 * 86_400_000)
        let hourAgo = Timestamp(milliseconds: now.milliseconds - 3_600_000)
        try await store.commit(StoreCommit(provider: "replay", alerts: [PendingAlert(alert: alert("id-old", time: old), sinks: ["out"])], now: old))
        try await store.commit(StoreCommit(provider: "replay", alerts: [PendingAlert(alert: alert("id-hour", time: hourAgo, percent: true), sinks: ["out", "ops"])], now: hourAgo))
        try await store.commit(StoreCommit(provider: "replay", alerts: [PendingAlert(alert: alert("id-now", time: now), sinks: ["ops", "gone"])], now: now))
        func at(_ base: Timestamp, plus seconds: Int64) -> Timestamp { Timestamp(milliseconds: base.milliseconds + seconds * 1000) }
        try await store.recordAttempts([
            DeliveryOutcome(notificationID: "id-old", sink: "out", at: at(old, plus: 1), result: .delivered),
            DeliveryOutcome(notificationID: "id-hour", sink: "out", at: at(hourAgo, plus: 1), result: .delivered),
            DeliveryOutcome(notificationID: "id-hour", sink: "ops", at: at(hourAgo, plus: 1), result: .retry(at: at(hourAgo, plus: 2), error: "HTTP 503")),
            DeliveryOutcome(notificationID: "id-now", sink: "ops", at: now, result: .dead(error: "HTTP 404 Not Found")),
            DeliveryOutcome(notificationID: "id-now", sink: "gone", at: now, result: .dead(error: "no sink named 'gone' in the configuration")),
        ])
        try await store.recordAttempt(DeliveryOutcome(notificationID: "id-hour", sink: "ops", at: at(hourAgo, plus: 2),
                                                      result: .retry(at: at(hourAgo, plus: 3_700), error: "HTTP 429")))
        try store.close()
    }

    @Test func textShowsEveryDeliveryStateAndSinceFilters() async throws {
        let directory = try TemporaryDirectory()
        try Self.writeConfiguration(in: directory)
        let now = Timestamp(seconds: Int64(Date().timeIntervalSince1970))
        try await Self.seed(directory.file("state/pricewatch.db"), now: now)
        let hourAgo = Timestamp(milliseconds: now.milliseconds - 3_600_000)
        func plus(_ base: Timestamp, _ seconds: Int64) -> String { Timestamp(milliseconds: base.milliseconds + seconds * 1000).rfc3339 }

        let result = try await CommandRunner.run(["alerts", "--config", "pricewatch.toml", "--since", "1d"], in: directory.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty)
        #expect(result.outputLines == [
            "\(hourAgo.rfc3339) aapl-fall AAPL 225.70 USD fall 3% from previous close (base 233.00, change -3.13304721%) [id-hour]",
            "  stdout/out: delivered \(plus(hourAgo, 1)) (1 attempt)",
            "  stdout/ops: pending: next attempt \(plus(hourAgo, 3_700)) (2 attempts, last error: HTTP 429)",
            "\(now.rfc3339) aapl-200 AAPL 225.70 USD above 200 [id-now]",
            "  stdout/ops: dead (1 attempt): HTTP 404 Not Found",
            "  gone: dead (1 attempt): no sink named 'gone' in the configuration",
        ])
        let all = try await CommandRunner.run(["alerts", "--config", "pricewatch.toml"], in: directory.path)
        #expect(all.outputLines.filter { !$0.hasPrefix(" ") }.count == 3)
    }

    @Test func jsonIsOneObjectPerAlertWithItsDeliveries() async throws {
        let directory = try TemporaryDirectory()
        try Self.writeConfiguration(in: directory)
        let now = Timestamp(seconds: Int64(Date().timeIntervalSince1970))
        try await Self.seed(directory.file("state/pricewatch.db"), now: now)
        let hourAgo = Timestamp(milliseconds: now.milliseconds - 3_600_000)
        func plus(_ base: Timestamp, _ seconds: Int64) -> String { Timestamp(milliseconds: base.milliseconds + seconds * 1000).rfc3339 }

        let result = try await CommandRunner.run(["alerts", "--config", "pricewatch.toml", "--since", "2h", "--format", "json"], in: directory.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines.count == 2)
        #expect(result.outputLines.first == """
            {"id":"id-hour","rule":"aapl-fall","symbol":"AAPL","time":"\(hourAgo.rfc3339)","price":225.7,\
            "condition":"fall 3% from previous close","base":233,"change":-3.13304721,"currency":"USD","provider":"replay",\
            "message":"AAPL at 225.70","deliveries":[\
            {"sink":"out","identity":"stdout/out","status":"delivered","attempts":1,"queued_at":"\(hourAgo.rfc3339)",\
            "next_attempt_at":null,"delivered_at":"\(plus(hourAgo, 1))","last_error":null},\
            {"sink":"ops","identity":"stdout/ops","status":"pending","attempts":2,"queued_at":"\(hourAgo.rfc3339)",\
            "next_attempt_at":"\(plus(hourAgo, 3_700))","delivered_at":null,"last_error":"HTTP 429"}]}
            """)
        // Every line is valid JSON with the deliveries as an array.
        for line in result.outputLines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect((object?["deliveries"] as? [[String: Any]])?.isEmpty == false)
        }
    }

    /// The daemon holds the database open and writes to it; `alerts` reads it meanwhile.
    @Test func worksWhileTheDaemonRuns() async throws {
        let directory = try TemporaryDirectory()
        try RunCommandTests.writeDaemon(in: directory, prices: ["10", "20", "10"])
        let daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path)
        try await daemon.waitForOutput("two alerts") { RunCommandTests.alertTimes($0).count >= 2 }
        let printed = daemon.outputLines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
        }
        // A delivery is marked delivered just after its line is printed: wait for the log to say so.
        var listed: [[String: Any]] = []
        try await waitUntil("`alerts` to list two delivered alerts (listed: \(listed))") {
            let result = try await CommandRunner.run(["alerts", "--config", "pricewatch.toml", "--format", "json"], in: directory.path)
            #expect(result.status == 0, "\(result.standardError)")
            listed = result.outputLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            let states = listed.flatMap { ($0["deliveries"] as? [[String: Any]]) ?? [] }.compactMap { $0["status"] as? String }
            return listed.count >= 2 && states.allSatisfy { $0 == "delivered" }
        }
        #expect(listed.compactMap { $0["id"] as? String } == printed)
        #expect(daemon.isRunning)
        #expect(try await daemon.stop() == 0)
    }

    @Test func usageAndMissingDatabaseErrors() async throws {
        let directory = try TemporaryDirectory()
        try Self.writeConfiguration(in: directory)
        let badSince = try await CommandRunner.run(["alerts", "--config", "pricewatch.toml", "--since", "yesterday"], in: directory.path)
        #expect(badSince.status == 64)
        #expect(badSince.standardError.contains("--since"))

        let missing = try await CommandRunner.run(["alerts", "--config", "pricewatch.toml"], in: directory.path)
        #expect(missing.status == 1)
        #expect(missing.errorLines == ["error: state database \(directory.file("state/pricewatch.db")): cannot open: no such file (the daemon creates it when it first starts)"])
        #expect(!FileManager.default.fileExists(atPath: directory.file("state")))

        let noConfig = try await CommandRunner.run(["alerts", "--config", "nowhere.toml"], in: directory.path)
        #expect(noConfig.status == 1)
        #expect(noConfig.errorLines.first?.hasPrefix("nowhere.toml: error: cannot read the configuration file") == true)
    }
}
