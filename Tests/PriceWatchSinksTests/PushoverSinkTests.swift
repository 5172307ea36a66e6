import Foundation
import PriceWatchCore
import PriceWatchCurl
import PriceWatchSinks
import PriceWatchTestKit
import Testing

/// The Pushover sink over the real libcurl transport against a loopback server that checks
/// each request as https://pushover.net/api documents it: `POST /1/messages.json`, a form
/// (or `multipart/form-data` with an `attachment`), the priorities, and Pushover's answers.
@Suite struct PushoverSinkTests {
    static let token = "azGDORePK8gMaC0QOYAMyEEuzJnyUi"
    static let user = "uQiRzpo4DXghDmr9QzzfQu27cmVRsG"
    static let okAnswer = #"{"status":1,"request":"647d2300-702c-4b38-8b2f-d56326ae460b"}"#
    let transport = CurlHTTPTransport()

    func sink(_ server: LoopbackHTTPServer, device: String? = nil, retry: Duration? = nil, expire: Duration? = nil,
              chart: Bool = false, charts: (any AlertChartProvider)? = nil, urgentRules: Set<String> = []) throws -> PushoverSink {
        try PushoverSink(name: "phone", settings: PushoverSettings(token: Self.token, user: Self.user, device: device, apiURL: server.baseURL,
                                                                   retry: retry, expire: expire, chart: chart),
                         transport: transport, charts: charts, urgentRules: urgentRules)
    }

    @Test func aNormalAlertIsAFormAtPriorityZero() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/1/messages.json") { _ in .json(Self.okAnswer) }
        try await sink(server, device: "pixel").deliver(WebhookFixtures.fall)
        let request = try #require(server.requests.first)
        #expect(request.path == "/1/messages.json")
        #expect(request.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(ServiceSinkSupport.form(request) == [
            "token": Self.token, "user": Self.user, "device": "pixel", "title": "AAPL fall 3% from previous close",
            "message": "AAPL fell 3.00% to 219.42 € <now> & \"more\"\nsecond line", "priority": "0",
            "timestamp": "1727879460",
        ])
    }

    @Test func urgentRulesArePriorityOneOrEmergencyWithRetryAndExpire() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/1/messages.json") { _ in .json(Self.okAnswer) }
        try await sink(server, urgentRules: ["aapl-drop"]).deliver(WebhookFixtures.fall)
        try await sink(server, retry: .seconds(60), expire: .seconds(3600), urgentRules: ["aapl-drop"]).deliver(WebhookFixtures.fall)
        try await sink(server, retry: .seconds(60), expire: .seconds(3600), urgentRules: ["aapl-drop"]).deliver(WebhookFixtures.crossing)
        let forms = server.requests.map(ServiceSinkSupport.form)
        try #require(forms.count == 3)
        #expect(forms[0]["priority"] == "1")
        #expect(forms[0]["retry"] == nil)
        #expect(forms[1]["priority"] == "2")
        #expect(forms[1]["retry"] == "60")
        #expect(forms[1]["expire"] == "3600")
        #expect(forms[2]["priority"] == "0")
        #expect(forms[2]["retry"] == nil)
    }

    @Test func theMessageIsCutTo1024Characters() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/1/messages.json") { _ in .json(Self.okAnswer) }
        try await sink(server).deliver(ServiceSinkSupport.longAlert(length: 3000))
        let request = try #require(server.requests.first)
        let message = try #require(ServiceSinkSupport.form(request)["message"])
        #expect(message.unicodeScalars.count <= PushoverRequestBuilder.messageLimit)
        #expect(message.unicodeScalars.count > PushoverRequestBuilder.messageLimit - 300)
        #expect(message.hasSuffix("…"))
    }

    @Test func theChartIsTheAttachment() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/1/messages.json") { _ in .json(Self.okAnswer) }
        try await sink(server, chart: true, charts: ServiceSinkSupport.FixedChart(png: ServiceSinkSupport.png)).deliver(WebhookFixtures.crossing)
        let parts = try ServiceSinkSupport.multipart(try #require(server.requests.first))
        #expect(parts.map(\.name) == ["token", "user", "title", "message", "priority", "timestamp", "attachment"])
        #expect(parts.first { $0.name == "message" }?.text == "BTC-USD 100000.50: crosses 100000 (up) (rule btc-100k)")
        let attachment = try #require(parts.last)
        #expect(attachment.filename == "chart-BTC-USD.png")
        #expect(attachment.contentType == "image/png")
        #expect(attachment.body == ServiceSinkSupport.png)
    }

    @Test func aDigestCarriesItsFirstChartAsTheAttachment() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/1/messages.json") { _ in .json(Self.okAnswer) }
        try await sink(server).deliver(ServiceSinkSupport.digest())
        let parts = try ServiceSinkSupport.multipart(try #require(server.requests.first))
        #expect(parts.map(\.name) == ["token", "user", "title", "message", "priority", "attachment"])
        #expect(parts.first { $0.name == "message" }?.text == "AAPL +2.10%\nMSFT -0.40%")
        #expect(parts.last?.filename == "chart-AAPL.png")
    }

    @Test func overTheQuotaIsRetryableWithItsWait() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/1/messages.json", sequence: [
            .json(#"{"errors":["application has exceeded its message limit"],"status":0}"#, status: 429, headers: [HTTPHeader("Retry-After", "120")]),
            .json(Self.okAnswer),
        ])
        let sink = try sink(server)
        let error = await ServiceSinkSupport.attempt { () async throws(SinkError) in try await sink.deliver(WebhookFixtures.fall) }
        #expect(error == SinkError(retryable: true, "pushover/phone: \(server.baseURL) answered HTTP 429: application has exceeded its message limit (retry after 120s)",
                                   retryAfterSeconds: 120))
        #expect(await ServiceSinkSupport.attempt { () async throws(SinkError) in try await sink.deliver(WebhookFixtures.fall) } == nil)
    }

    @Test func anInvalidUserIsPermanentAndServerErrorsAreNot() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/1/messages.json", sequence: [
            .json(#"{"user":"invalid","errors":["user identifier is not a valid user, group, or subscribed user key"],"status":0,"request":"5042853c"}"#, status: 400),
            .status(503),
        ])
        let sink = try sink(server)
        let rejected = await ServiceSinkSupport.attempt { () async throws(SinkError) in try await sink.deliver(WebhookFixtures.fall) }
        #expect(rejected == SinkError(retryable: false, "pushover/phone: \(server.baseURL) answered HTTP 400: user identifier is not a valid user, group, or subscribed user key"))
        let unavailable = await ServiceSinkSupport.attempt { () async throws(SinkError) in try await sink.deliver(WebhookFixtures.fall) }
        #expect(unavailable?.isRetryable == true)
    }

    @Test func anEchoedTokenOrUserKeyNeverReachesTheError() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/1/messages.json", sequence: [
            .json(#"{"token":"invalid","errors":["application token \#(Self.token) is invalid for user \#(Self.user)"],"status":0}"#, status: 400),
            .text("token=\(Self.token)&user=\(Self.user) rejected", status: 500),
        ])
        let sink = try sink(server)
        for _ in 0..<2 {
            let error = try #require(await ServiceSinkSupport.attempt { () async throws(SinkError) in try await sink.deliver(WebhookFixtures.fall) })
            ServiceSinkSupport.expectNoSecret(error.message, Self.token)
            ServiceSinkSupport.expectNoSecret(error.message, Self.user)
        }
        ServiceSinkSupport.expectNoSecret("\(sink) \(sink.builder)", Self.token)
        ServiceSinkSupport.expectNoSecret("\(sink) \(sink.builder)", Self.user)
    }

    @Test func retryWithoutExpireIsRefused() {
        #expect(throws: ServiceConfigurationError("retry: 'retry' without 'expire': emergency priority needs both (expire = \"1h\")")) {
            try PushoverSink(name: "p", settings: PushoverSettings(token: Self.token, user: Self.user, apiURL: "https://api.pushover.net",
                                                                   retry: .seconds(60)), transport: transport)
        }
    }
}
