import Foundation
import PriceWatchCore
import PriceWatchStore
import PriceWatchTestKit
import Testing

/// `pricewatch alerts --rule/--symbol/--status/--format csv`, its "no alerts" line, and
/// `pricewatch rules` (alias `status`), on the built binary over a database seeded through
/// the store.
@Suite(.serialized) struct AlertsFilterAndRulesCommandTests {
    let directory: TemporaryDirectory
    let now: Timestamp

    init() async throws {
        directory = try TemporaryDirectory()
        try AlertsCommandTests.writeConfiguration(in: directory)
        now = Timestamp(seconds: Int64(Date().timeIntervalSince1970))
        try await AlertsCommandTests.seed(directory.file("state/pricewatch.db"), now: now)
    }

    func run(_ arguments: [String]) async throws -> CommandRunner.Result {
        try await CommandRunner.run(arguments, in: directory.path)
    }

    @Test func rulesSymbolAndStatusFilterInTheStore() async throws {
        let rule = try await run(["alerts", "--config", "pricewatch.toml", "--rule", "aapl-fall"])
        #expect(rule.status == 0, "\(rule.standardError)")
        #expect(rule.outputLines.filter { !$0.hasPrefix(" ") }.map { $0.hasSuffix("[id-hour]") } == [true])

        let dead = try await run(["alerts", "--config", "pricewatch.toml", "--status", "dead"])
        #expect(dead.outputLines == [
            "\(now.rfc3339) aapl-200 AAPL 225.70 USD above 200 [id-now]",
            "  stdout/ops: dead (1 attempt): HTTP 404 Not Found",
            "  gone: dead (1 attempt): no sink named 'gone' in the configuration",
        ])
        let pending = try await run(["alerts", "--config", "pricewatch.toml", "--status", "pending", "--format", "json"])
        #expect(pending.outputLines.count == 1)
        #expect(pending.outputLines.first?.contains(#""id":"id-hour""#) == true)
        #expect(pending.outputLines.first?.contains(#""status":"delivered""#) == false)

        let symbol = try await run(["alerts", "--config", "pricewatch.toml", "--symbol", "MSFT"])
        #expect(symbol.status == 0)
        #expect(symbol.outputLines == ["no alerts for MSFT in the alert log"])

        let bad = try await run(["alerts", "--config", "pricewatch.toml", "--status", "lost"])
        #expect(bad.status == 64)
    }

    @Test func noAlertsSinceSaysSo() async throws {
        try directory.write("empty.toml", "state = \"empty/pricewatch.db\"\n[sinks.out]\ntype = \"stdout\"\n")
        let store = try SQLiteAlertStore.open(path: directory.file("empty/pricewatch.db"))
        try store.close()
        let result = try await run(["alerts", "--config", "empty.toml", "--since", "1h"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines.count == 1)
        #expect(result.outputLines.first?.hasPrefix("no alerts since ") == true, "\(result.outputLines)")
        let stamp = String(result.outputLines.first?.dropFirst("no alerts since ".count) ?? "")
        #expect(Timestamp(parsing: stamp) != nil && stamp.hasSuffix("Z"), "\(stamp)")
        #expect(try await run(["alerts", "--config", "empty.toml", "--format", "json"]).standardOutput.isEmpty)
    }

    @Test func csvHasAHeaderAndOneRowPerDelivery() async throws {
        let result = try await run(["alerts", "--config", "pricewatch.toml", "--format", "csv", "--rule", "aapl-200", "--since", "1h"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines == [
            "alert_id,time,rule,symbol,provider,price,currency,condition,sink,identity,status,attempts,queued_at,next_attempt_at,delivered_at,last_error",
            "id-now,\(now.rfc3339),aapl-200,AAPL,replay,225.7,USD,above 200,ops,stdout/ops,dead,1,\(now.rfc3339),,,HTTP 404 Not Found",
            "id-now,\(now.rfc3339),aapl-200,AAPL,replay,225.7,USD,above 200,gone,,dead,1,\(now.rfc3339),,,no sink named 'gone' in the configuration",
        ])
    }

    /// Rules in every state: fired (the seeded state), armed (no state), cooling down,
    /// disabled and expired; the last price from the quote table and the last alert.
    @Test func rulesShowsEveryRuleWithStateLastPriceAndLastAlert() async throws {
        try directory.write("rules.d/a.toml", """
            [[rule]]
            id = "aapl-200"
            symbol = "AAPL"
            above = 200
            [[rule]]
            id = "aapl-fall"
            symbols = ["AAPL", "MSFT"]
            fall = 3
            cooldown = "2h"
            [[rule]]
            id = "off"
            symbol = "AAPL"
            below = 100
            enabled = false
            [[rule]]
            id = "old"
            symbol = "AAPL"
            below = 100
            expires = 2020-01-01T00:00:00Z
            """)
        let store = try SQLiteAlertStore.open(path: directory.file("state/pricewatch.db"))
        let hourAgo = Timestamp(milliseconds: now.milliseconds - 3_600_000)
        let fired = RuleState(phase: .fired, lastAlertAt: now, alertCount: 1)
        let cooling = RuleState(phase: .armed, lastAlertAt: hourAgo, alertCount: 1)
        try await store.commit(StoreCommit(
            provider: "replay",
            quotes: [Quote(symbol: "AAPL", price: ExactDecimal(scaled: 22_570_000_000), time: now)],
            states: [RuleStateKey(rule: "aapl-200", symbol: "AAPL"): StoredRuleState(fingerprint: "above=200;rearm=0", state: fired),
                     RuleStateKey(rule: "aapl-fall", symbol: "AAPL"): StoredRuleState(fingerprint: "fall=3;from=previous_close;rearm=0", state: cooling)],
            now: now))
        try store.close()

        let json = try await run(["rules", "--config", "pricewatch.toml", "--format", "json"])
        #expect(json.status == 0, "\(json.standardError)")
        let objects = json.outputLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.count == 5, "\(json.outputLines)")
        func object(_ rule: String, _ symbol: String) -> [String: Any]? {
            objects.first { $0["rule"] as? String == rule && $0["symbol"] as? String == symbol }
        }
        let aapl200 = object("aapl-200", "AAPL")
        #expect(aapl200?["state"] as? String == "fired")
        #expect(aapl200?["last_price"] as? Double == 225.7)
        #expect(aapl200?["last_price_time"] as? String == now.rfc3339)
        #expect(aapl200?["last_alert_id"] as? String == "id-now")
        #expect(aapl200?["last_alert_delivery"] as? String == "dead")
        #expect(object("aapl-fall", "AAPL")?["state"] as? String == "cooling down")
        #expect(object("aapl-fall", "AAPL")?["cooldown_until"] as? String == Timestamp(milliseconds: hourAgo.milliseconds + 7_200_000).rfc3339)
        #expect(object("aapl-fall", "AAPL")?["last_alert_delivery"] as? String == "1 delivered, 1 pending")
        #expect(object("aapl-fall", "MSFT")?["state"] as? String == "armed")
        #expect(object("aapl-fall", "MSFT")?["last_price"] is NSNull)
        #expect(object("off", "AAPL")?["state"] as? String == "disabled")
        #expect(object("old", "AAPL")?["state"] as? String == "expired")

        let text = try await run(["status", "--config", "pricewatch.toml"])
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.outputLines.first?.hasPrefix("RULE ") == true)
        #expect(text.outputLines.count == 6)
        #expect(text.outputLines.contains { $0.hasPrefix("aapl-fall") && $0.contains("cooling down until ") })
    }

    /// Next to a running daemon: the database is opened read-only while the daemon writes.
    @Test func rulesWorksWithoutAStateDatabase() async throws {
        try directory.write("fresh.toml", "state = \"fresh/pricewatch.db\"\n[providers.replay]\ntype = \"replay\"\nfile = \"prices.csv\"\n[sinks.out]\ntype = \"stdout\"\n")
        let result = try await run(["rules", "--config", "fresh.toml"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines.count == 2)
        #expect(result.outputLines.last?.hasPrefix("aapl-200  AAPL    armed") == true, "\(result.outputLines)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("fresh/pricewatch.db")))
    }
}
