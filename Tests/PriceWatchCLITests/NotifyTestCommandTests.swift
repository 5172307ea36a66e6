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

    @Test func sendsATestAlertThroughTheSinkDirectly() async throws {
        let directory = try TemporaryDirectory()
        try Self.writeConfiguration(in: directory)
        let result = try await CommandRunner.run(["notify-test", "--config", "pricewatch.toml", "console"], in: directory.path)
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

    @Test func anUnknownSinkIsAnErrorListingTheKnownOnes() async throws {
        let directory = try TemporaryDirectory()
        try Self.writeConfiguration(in: directory)
        let result = try await CommandRunner.run(["notify-test", "--config", "pricewatch.toml", "ops"], in: directory.path)
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.errorLines == ["pricewatch.toml: error: no sink named 'ops'; known sinks: console, other"])
    }

    /// Through a webhook on loopback: a receiver that accepts, then one that refuses.
    @Test func reportsTheWebhookReceiversAnswer() async throws {
        let receiver = try LoopbackHTTPServer()
        defer { receiver.stop() }
        receiver.route("POST", "/ok") { _ in .status(204) }
        receiver.route("POST", "/gone") { _ in .status(404) }
        let directory = try TemporaryDirectory()
        try Self.writeConfiguration(in: directory)
        let main = try String(contentsOfFile: directory.file("pricewatch.toml"), encoding: .utf8)
        try directory.write("pricewatch.toml", main + """

            [sinks.ops]
            type = "webhook"
            url = "\(receiver.baseURL)/ok"
            [sinks.old]
            type = "webhook"
            url = "\(receiver.baseURL)/gone"
            """)

        let sent = try await CommandRunner.run(["notify-test", "--config", "pricewatch.toml", "ops"], in: directory.path)
        #expect(sent.status == 0, "\(sent.standardError)")
        let request = try #require(receiver.requests(path: "/ok").first)
        let body = try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]
        #expect(body?["rule"] as? String == "notify-test")
        let id = try #require(body?["id"] as? String)
        #expect(sent.outputLines == ["sent through webhook/ops (alert id \(id))"])

        let refused = try await CommandRunner.run(["notify-test", "--config", "pricewatch.toml", "old"], in: directory.path)
        #expect(refused.status == 1)
        #expect(refused.standardOutput.isEmpty)
        #expect(refused.errorLines.count == 1)
        #expect(refused.errorLines.first?.hasPrefix("webhook/old: error: ") == true)
        #expect(refused.errorLines.first?.contains("webhook/old: error: webhook/old") == false, "the sink named once: \(refused.errorLines)")
        #expect(refused.errorLines.first?.contains("404") == true, "\(refused.errorLines)")
        #expect(receiver.requests(path: "/gone").count == 1, "sent once, never retried")
    }

    @Test func aSinkNameIsRequired() async throws {
        let result = try await CommandRunner.run(["notify-test"])
        #expect(result.status == 64)
    }
}
