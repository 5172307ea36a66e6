import Foundation
import PriceWatchTestKit
import Testing

/// `pricewatch run` delivering to a webhook: the real binary, its libcurl transport and its
/// outbox, against a real HTTP receiver on loopback that fails before it recovers.
@Suite(.serialized) struct WebhookDeliveryTests {
    static let secret = "whsec_" + "ZGFlbW9uLWVuZC10by1lbmQtc2lnbmluZy1rZXk="

    @Test func failuresAreRetriedWithTheSameIdUntilTheReceiverAccepts() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/hook", sequence: [
            .status(500, body: "down for maintenance"),
            .status(429, headers: [.init("Retry-After", "1")]),
            .status(204),
        ])
        let directory = try TemporaryDirectory()
        try directory.write("pricewatch.toml", """
            state = "state/pricewatch.db"
            interval = "1s"
            [providers.replay]
            type = "replay"
            file = "prices.csv"
            [sinks.hook]
            type = "webhook"
            url = "\(server.baseURL)/hook"
            headers = { X-Team = "ops" }
            timeout = "5s"
            secret = { file = "webhook.secret" }
            """)
        try directory.write("webhook.secret", Self.secret + "\n")
        try directory.write("prices.csv", "symbol,time,price,currency\nX,1727875800,10,USD\nX,1727875860,20.5,USD\n")
        try directory.write("rules.d/x.toml", "[[rule]]\nid = \"x-crosses-15\"\nsymbol = \"X\"\ncrosses = 15\n")

        let daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path)
        let requests = try await server.waitForRequests(count: 3)
        #expect(try await daemon.stop() == 0, "\(daemon.errorLines)")

        try #require(requests.count == 3, "\(daemon.errorLines)")
        let ids = Set(requests.compactMap { $0.header("webhook-id") })
        #expect(ids.count == 1)
        let id = try #require(ids.first)
        for request in requests {
            #expect(request.header("X-Team") == "ops")
            #expect(request.header("Content-Type") == "application/json")
            #expect(request.bodyText == """
                {"version":1,"type":"alert.fired","id":"\(id)","rule":"x-crosses-15","symbol":"X","condition":"crosses 15","direction":"up","price":20.5,"currency":"USD","time":"2024-10-02T13:31:00Z","base":null,"change":null,"provider":"replay","message":"X 20.50 USD: crosses 15 (up) (rule x-crosses-15)"}
                """)
        }
        let verdicts = try await StandardWebhooksVerifier.verify(requests, secret: Self.secret)
        #expect(verdicts == Array(repeating: "ok \(id)", count: 3))
        // The secret never reaches the daemon's output.
        #expect(!(daemon.outputLines + daemon.errorLines).contains { $0.contains("ZGFlbW9uLWVuZC10by1lbmQtc2lnbmluZy1rZXk") })
    }
}
