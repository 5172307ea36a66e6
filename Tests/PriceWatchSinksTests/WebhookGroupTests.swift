import PriceWatchCore
import PriceWatchCurl
import PriceWatchSinks
import PriceWatchTestKit
import Testing

/// A group of alerts (`group_wait`) goes out as one request in every format.
@Suite struct WebhookGroupTests {
    static let group = [WebhookFixtures.fall, WebhookFixtures.crossing]
    static let groupID = WebhookRequestBuilder.groupID(for: group)

    @Test func jsonGroupCarriesEverySinglePayload() {
        let body = String(decoding: WebhookFormat.json.content(for: Self.group, groupID: Self.groupID).body, as: UTF8.self)
        #expect(body == #"{"version":1,"type":"alerts.fired","id":""# + Self.groupID + #"","count":2,"alerts":["#
            + WebhookPayload.json(for: WebhookFixtures.fall) + "," + WebhookPayload.json(for: WebhookFixtures.crossing) + "]}")
    }

    @Test func chatFormatsListTheMessagesOnePerLine() {
        func body(_ format: WebhookFormat) -> String {
            String(decoding: format.content(for: Self.group, groupID: Self.groupID).body, as: UTF8.self)
        }
        #expect(body(.slack) == #"{"text":"AAPL fell 3.00% to 219.42 € &lt;now&gt; &amp; \"more\"\nsecond line\nBTC-USD 100000.50: crosses 100000 (up) (rule btc-100k)"}"#)
        #expect(body(.discord) == #"{"content":"AAPL fell 3.00% to 219.42 € <now> & \"more\"\nsecond line\nBTC-USD 100000.50: crosses 100000 (up) (rule btc-100k)","allowed_mentions":{"parse":[]}}"#)
        #expect(body(.ntfy) == "AAPL fell 3.00% to 219.42 € <now> & \"more\"\nsecond line\nBTC-USD 100000.50: crosses 100000 (up) (rule btc-100k)")
        let headers = WebhookFormat.ntfy.content(for: Self.group, groupID: Self.groupID).headers
        // Mixed directions: no trend tag.
        #expect(headers == [
            HTTPHeader("Content-Type", "text/plain; charset=utf-8"),
            HTTPHeader("Title", "2 alerts: AAPL, BTC-USD"),
            HTTPHeader("Priority", "high"),
        ])
    }

    @Test func aGroupIsOneSignedRequestWithADerivedId() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/hook") { _ in .status(204) }
        let sink = try WebhookSink(name: "ops", settings: .init(url: server.baseURL + "/hook", secret: WebhookReceiverTests.secret),
                                   transport: CurlHTTPTransport(), wallClock: WebhookReceiverTests.currentClock().function)
        try await sink.deliver(Self.group)
        try await sink.deliver([WebhookFixtures.crossing])   // a group of one is the single payload
        let requests = server.requests
        try #require(requests.count == 2)
        #expect(requests[0].header("webhook-id") == Self.groupID)
        #expect(requests[0].bodyText == String(decoding: WebhookFormat.json.content(for: Self.group, groupID: Self.groupID).body, as: UTF8.self))
        #expect(requests[1].header("webhook-id") == WebhookFixtures.crossing.id)
        #expect(requests[1].bodyText == WebhookPayload.json(for: WebhookFixtures.crossing))
        let verdicts = try await StandardWebhooksVerifier.verify(requests, secret: WebhookReceiverTests.secret)
        #expect(verdicts == ["ok \(Self.groupID)", "ok \(WebhookFixtures.crossing.id)"])
    }

    @Test func theGroupIdDependsOnEveryMember() {
        #expect(Self.groupID == "group-" + String(Self.groupID.dropFirst(6).prefix(16)) + "-2")
        #expect(WebhookRequestBuilder.groupID(for: [WebhookFixtures.fall, WebhookFixtures.crossing])
                != WebhookRequestBuilder.groupID(for: [WebhookFixtures.fall]))
        #expect(WebhookRequestBuilder.groupID(for: [WebhookFixtures.fall, WebhookFixtures.crossing])
                != WebhookRequestBuilder.groupID(for: [WebhookFixtures.crossing, WebhookFixtures.fall]))
    }

    @Test func aDiscordGroupPastTheLimitGoesOutInPartsThatEachFit() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/hook") { _ in .status(204) }
        let sink = try WebhookSink(name: "chat", settings: .init(url: server.baseURL + "/hook", format: .discord),
                                   transport: CurlHTTPTransport(), wallClock: WebhookReceiverTests.currentClock().function)
        var alerts: [Alert] = []
        for index in 0..<40 {
            var alert = WebhookFixtures.crossing
            alert.id = "alert-\(index)"
            alert.message = "alert number \(index) " + String(repeating: "x", count: 80)
            alerts.append(alert)
        }
        try await sink.deliver(alerts)
        let bodies = server.requests.map(\.bodyText)
        #expect(bodies.count > 1)
        for body in bodies { #expect(body.utf16.count < DiscordPayload.maximumLength + 100) }
        for index in 0..<40 {
            #expect(bodies.contains { $0.contains("alert number \(index) ") }, "alert \(index) was cut off")
        }
        #expect(!bodies.contains { $0.contains("…") })
    }
}
