import Foundation
import PriceWatchCore
import PriceWatchStore
import PriceWatchTestKit
import Testing

/// `--tz ZONE` on `alerts`, `rules` and `quote`: text output in a zone, JSON still UTC, and
/// the default unchanged.
@Suite(.serialized) struct TimeZoneOptionTests {
    @Test func alertsTextPrintsTimesInTheZoneAndJSONStaysUTC() async throws {
        let directory = try TemporaryDirectory()
        try AlertsCommandTests.writeConfiguration(in: directory)
        // 2024-10-02T13:30:00Z is 09:30 in New York (EDT, -04:00).
        let time = try #require(Timestamp(parsing: "2024-10-02T13:30:00Z"))
        let store = try SQLiteAlertStore.open(path: directory.file("state/pricewatch.db"))
        try await store.commit(StoreCommit(provider: "replay", alerts: [PendingAlert(alert: AlertsCommandTests.alert("id-1", time: time), sinks: ["out"])],
                                           now: time))
        try store.close()

        let zoned = try await CommandRunner.run(["alerts", "--config", "pricewatch.toml", "--tz", "America/New_York"], in: directory.path)
        #expect(zoned.status == 0, "\(zoned.standardError)")
        #expect(zoned.outputLines.first == "2024-10-02 09:30 -04:00 aapl-200 AAPL 225.70 USD above 200 [id-1]")
        let plain = try await CommandRunner.run(["alerts", "--config", "pricewatch.toml"], in: directory.path)
        #expect(plain.outputLines.first == "2024-10-02T13:30:00Z aapl-200 AAPL 225.70 USD above 200 [id-1]")
        let json = try await CommandRunner.run(["alerts", "--config", "pricewatch.toml", "--tz", "America/New_York", "--format", "json"],
                                               in: directory.path)
        #expect(json.standardOutput.contains("\"time\":\"2024-10-02T13:30:00Z\""))
    }

    @Test func aZoneThatDoesNotExistIsAUsageError() async throws {
        let directory = try TemporaryDirectory()
        try AlertsCommandTests.writeConfiguration(in: directory)
        for command in [["alerts"], ["rules"], ["quote", "AAPL"], ["backtest", "--rules", "rules.d", "--data", "prices.csv"]] {
            let result = try await CommandRunner.run(command + ["--config", "pricewatch.toml", "--tz", "Mars/Olympus_Mons"], in: directory.path)
            #expect(result.status == 64, "\(command): \(result.standardError)")
            #expect(result.standardError.contains("--tz: expected an IANA time zone such as 'Europe/London' or 'UTC', found 'Mars/Olympus_Mons'"))
        }
        let market = try await CommandRunner.run(["rules", "--config", "pricewatch.toml", "--tz", "market"], in: directory.path)
        #expect(market.status == 64)
        #expect(market.standardError.contains("--tz market: rules prints no per-symbol market times"))
    }

    @Test func backtestTextPrintsAlertTimesInTheZone() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("rules.toml", "[[rule]]\nid = \"r\"\nsymbol = \"AAPL\"\nabove = 200\n")
        try directory.write("prices.csv", "symbol,time,price\nAAPL,2024-10-02T13:30:00Z,225.70\n")
        let zoned = try await CommandRunner.run(["backtest", "--rules", "rules.toml", "--data", "prices.csv", "--tz", "Europe/Berlin"], in: directory.path)
        #expect(zoned.status == 0, "\(zoned.standardError)")
        #expect(zoned.outputLines.first?.hasPrefix("2024-10-02 15:30 +02:00 r AAPL 225.70") == true, "\(zoned.outputLines)")
    }
}
