import Foundation
import PriceWatchTestKit
import Testing

/// `pricewatch notify-test SINK` end to end with the built binary.
@Suite struct NotifyTestCommandTests {
    static func writeConfiguration(in directory: TemporaryDirectory) throws {
        try directory.write("pricewatch.toml", """
            state = "state/pricewatch.db"
            [providers.replay]
            type = "replay"
            file = "prices.csv"
            [sinks.console]
            type = "stdout"
            format = "json"
            [sinks.other]
            type = "stdout"
            """)
        try directory.write("prices.csv", "symbol,time,price\nAAPL,2024-10-02,225.70\n")
        try directory.write("rules.d/a.toml", "[[rule]]\nid = \"aapl-200\"\nsymbol = \"AAPL\"\nabove = 200\n")
    }

    @Test func sendsATestAlertThroughTheSinkDirectly() throws {
        let directory = try TemporaryDirectory()
        try Self.writeConfiguration(in: directory)
        let result = try CommandRunner.run(["notify-test", "--config", "pricewatch.toml", "console"], in: directory.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines.count == 2)
        let alert = try JSONSerialization.jsonObject(with: Data((result.outputLines.first ?? "").utf8)) as? [String: Any]
        #expect(alert?["rule"] as? String == "notify-test")
        #expect(alert?["symbol"] as? String == "TEST")
        #expect((alert?["message"] as? String)?.contains("test notification through stdout/console") == true)
        let id = try #require(alert?["id"] as? String)
        #expect(result.outputLines.last == "sent through stdout/console (alert id \(id))")
        #expect(!FileManager.default.fileExists(atPath: directory.file("state")), "not through the outbox")
    }

    @Test func anUnknownSinkIsAnErrorListingTheKnownOnes() throws {
        let directory = try TemporaryDirectory()
        try Self.writeConfiguration(in: directory)
        let result = try CommandRunner.run(["notify-test", "--config", "pricewatch.toml", "ops"], in: directory.path)
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.errorLines == ["pricewatch.toml: error: no sink named 'ops'; known sinks: console, other"])
    }

    @Test func aSinkNameIsRequired() throws {
        let result = try CommandRunner.run(["notify-test"])
        #expect(result.status == 64)
    }
}
