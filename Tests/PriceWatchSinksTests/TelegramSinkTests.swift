import Foundation
import PriceWatchCore
import PriceWatchCurl
import PriceWatchSinks
import PriceWatchTestKit
import Testing

/// The Telegram sink over the real libcurl transport against a loopback Bot API server that
/// checks each request as the Bot API documents it (https://core.telegram.org/bots/api):
/// `POST /bot<token>/sendMessage` with a JSON body, `sendPhoto` as `multipart/form-data`, and
/// the answers Telegram gives (429 with `parameters.retry_after`, 400, 401, 5xx).
@Suite struct TelegramSinkTests {
    static let token = "6915307482:AAHf3kQz-Lm0Xy_pR8tUvWcD9eJbN4sG2hA"
    static let okAnswer = #"{"ok":true,"result":{"message_id":42,"date":1727879460,"chat":{"id":-1001234567890,"type":"supergroup"}}}"#
    let transport = CurlHTTPTransport()

    func sink(_ server: LoopbackHTTPServer, chat: String = "-1001234567890", topic: Int? = nil, silent: Bool = false,
              chart: Bool = false, charts: (any AlertChartProvider)? = nil, urgentRules: Set<String> = []) throws -> TelegramSink {
        try TelegramSink(name: "ops", settings: TelegramSettings(token: Self.token, chat: chat, topic: topic, silent: silent,
                                                                 apiURL: server.baseURL, chart: chart),
                         transport: transport, charts: charts, urgentRules: urgentRules)
    }

    var sendMessage: String { "/bot\(Self.token)/sendMessage" }

    @Test func sendMessageCarriesTheAlertAsHTML() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", sendMessage) { _ in .json(Self.okAnswer) }
        let sink = try sink(server, topic: 7, silent: true)

        try await sink.deliver(WebhookFixtures.fall)

        let request = try #require(server.requests.first)
        #expect(server.requests.count == 1)
        #expect(request.method == "POST")
        #expect(request.path == sendMessage)
        #expect(request.header("Content-Type") == "application/json")
        let body = try ServiceSinkSupport.json(request)
        #expect((body["chat_id"] as? NSNumber)?.int64Value == -1_001_234_567_890)
        #expect(body["message_thread_id"] as? Int == 7)
        #expect(body["parse_mode"] as? String == "HTML")
        #expect(body["disable_notification"] as? Bool == true)
        #expect(body["text"] as? String == "<b>AAPL fall 3% from previous close</b>\n"
            + "AAPL fell 3.00% to 219.42 € &lt;now&gt; &amp; &quot;more&quot;\nsecond line")
        #expect((body["link_preview_options"] as? [String: Any])?["is_disabled"] as? Bool == true)
    }

    @Test func urgentAlertsAreNeverSilentAndChannelsAreStrings() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", sendMessage) { _ in .json(Self.okAnswer) }
        try await sink(server, chat: "@price_alerts", silent: true, urgentRules: ["aapl-drop"]).deliver(WebhookFixtures.fall)
        let body = try ServiceSinkSupport.json(try #require(server.requests.first))
        #expect(body["chat_id"] as? String == "@price_alerts")
        #expect(body["disable_notification"] as? Bool == false)
        #expect(body["message_thread_id"] == nil)
    }

    @Test func aLongMessageIsCutToTelegramsLimitWithoutBreakingAnEntity() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", sendMessage) { _ in .json(Self.okAnswer) }
        try await sink(server).deliver(ServiceSinkSupport.longAlert(length: 9000))
        let request = try #require(server.requests.first)
        let text = try #require(try ServiceSinkSupport.json(request)["text"] as? String)
        // What Telegram counts: the text after its entities are parsed.
        let visible = text.replacingOccurrences(of: "<b>", with: "").replacingOccurrences(of: "</b>", with: "")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
        #expect(visible.utf16.count <= TelegramRequestBuilder.messageLimit)
        #expect(visible.utf16.count > TelegramRequestBuilder.messageLimit - 10)
        #expect(visible.hasSuffix("…"))
        #expect(!text.contains("&…") && !text.contains("&a…") && !text.contains("&am…"))
    }

    @Test func aGroupIsOneMessageWithOneLinePerAlert() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", sendMessage) { _ in .json(Self.okAnswer) }
        try await sink(server).deliver([WebhookFixtures.fall, WebhookFixtures.crossing])
        let text = try ServiceSinkSupport.json(try #require(server.requests.first))["text"] as? String
        #expect(server.requests.count == 1)
        #expect(text == "<b>2 alerts: AAPL, BTC-USD</b>\nAAPL fell 3.00% to 219.42 € &lt;now&gt; &amp; &quot;more&quot; second line\n"
            + "BTC-USD 100000.50: crosses 100000 (up) (rule btc-100k)")
    }

    @Test func chartTrueSendsThePhotoAsMultipart() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/bot\(Self.token)/sendPhoto") { _ in .json(Self.okAnswer) }
        let sink = try sink(server, topic: 3, chart: true, charts: ServiceSinkSupport.FixedChart(png: ServiceSinkSupport.png))
        try await sink.deliver(WebhookFixtures.crossing)

        let request = try #require(server.requests.first)
        #expect(request.path == "/bot\(Self.token)/sendPhoto")
        let parts = try ServiceSinkSupport.multipart(request)
        let byName = Dictionary(parts.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(parts.map(\.name) == ["chat_id", "message_thread_id", "caption", "parse_mode", "disable_notification", "photo"])
        #expect(byName["chat_id"]?.text == "-1001234567890")
        #expect(byName["message_thread_id"]?.text == "3")
        #expect(byName["caption"]?.text == "<b>BTC-USD crosses 100000 (up)</b>\nBTC-USD 100000.50: crosses 100000 (up) (rule btc-100k)")
        #expect(byName["parse_mode"]?.text == "HTML")
        #expect(byName["photo"]?.filename == "chart-BTC-USD.png")
        #expect(byName["photo"]?.contentType == "image/png")
        #expect(byName["photo"]?.body == ServiceSinkSupport.png)
    }

    @Test func withoutAChartToDrawTheAlertGoesAsText() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", sendMessage) { _ in .json(Self.okAnswer) }
        try await sink(server, chart: true, charts: ServiceSinkSupport.FixedChart(png: nil)).deliver(WebhookFixtures.crossing)
        #expect(server.requests.map(\.path) == [sendMessage])
    }

    /// A digest with charts: one `sendPhoto` of its first chart, its text as the caption.
    @Test func aDigestWithChartsSendsItsFirstChart() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/bot\(Self.token)/sendPhoto") { _ in .json(Self.okAnswer) }
        try await sink(server).deliver(ServiceSinkSupport.digest())
        let parts = try ServiceSinkSupport.multipart(try #require(server.requests.first))
        #expect(server.requests.count == 1)
        #expect(parts.first { $0.name == "caption" }?.text == "<b>Morning digest</b>\nAAPL +2.10%\nMSFT -0.40%")
        #expect(parts.last?.filename == "chart-AAPL.png")
        #expect(parts.last?.body == ServiceSinkSupport.png + Array("AAPL".utf8))
    }

    @Test func floodControlIsRetryableAfterTelegramsWait() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", sendMessage, sequence: [
            .json(#"{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 35","parameters":{"retry_after":35}}"#, status: 429),
            .json(Self.okAnswer),
        ])
        let sink = try sink(server)
        let host = server.baseURL
        let limited = await ServiceSinkSupport.attempt { () async throws(SinkError) in try await sink.deliver(WebhookFixtures.fall) }
        #expect(limited == SinkError(retryable: true, "telegram/ops: \(host) answered HTTP 429: Too Many Requests: retry after 35 (retry after 35s)",
                                     retryAfterSeconds: 35))
        #expect(await ServiceSinkSupport.attempt { () async throws(SinkError) in try await sink.deliver(WebhookFixtures.fall) } == nil)
    }

    @Test(arguments: [(400, "Bad Request: chat not found"), (401, "Unauthorized"), (403, "Forbidden: bot was blocked by the user"),
                      (404, "Not Found")])
    func clientErrorsArePermanent(status: Int, description: String) async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", sendMessage) { _ in .json(#"{"ok":false,"error_code":\#(status),"description":"\#(description)"}"#, status: status) }
        let built = try sink(server)
        let error = await ServiceSinkSupport.attempt { () async throws(SinkError) in try await built.deliver(WebhookFixtures.fall) }
        #expect(error == SinkError(retryable: false, "telegram/ops: \(server.baseURL) answered HTTP \(status): \(description)"))
    }

    @Test func aMigratedGroupSaysWhichChatToSet() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", sendMessage) { _ in
            .json(#"{"ok":false,"error_code":400,"description":"Bad Request: group chat was upgraded to a supergroup chat","parameters":{"migrate_to_chat_id":-1009876543210}}"#,
                  status: 400)
        }
        let built = try sink(server, chat: "-4012345")
        let error = await ServiceSinkSupport.attempt { () async throws(SinkError) in try await built.deliver(WebhookFixtures.fall) }
        #expect(error == SinkError(retryable: false, "telegram/ops: \(server.baseURL) answered HTTP 400: "
            + "Bad Request: group chat was upgraded to a supergroup chat (set chat = \"-1009876543210\")"))
    }

    @Test func serverErrorsAreRetryable() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", sendMessage) { _ in .html("<html><body>502 Bad Gateway</body></html>", status: 502) }
        let built = try sink(server)
        let error = await ServiceSinkSupport.attempt { () async throws(SinkError) in try await built.deliver(WebhookFixtures.fall) }
        #expect(error?.isRetryable == true)
        #expect(error?.retryAfterSeconds == nil)
    }

    /// A service (or a proxy before it) that echoes the token, whole or in part, in its error:
    /// the failure never shows it; neither does a connection failure, whose URL holds it.
    @Test func anEchoedTokenNeverReachesTheError() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let secretPart = String(Self.token.split(separator: ":")[1])
        server.route("POST", sendMessage, sequence: [
            .json(#"{"ok":false,"error_code":401,"description":"Unauthorized: invalid token \#(Self.token)"}"#, status: 401),
            .text("no route for POST /bot\(Self.token)/sendMessage", status: 404),
            .text("bad key …\(secretPart.dropFirst(5).prefix(12))… rejected", status: 403),
            .json(#"{"ok":false,"error_code":500,"description":"internal: \#(Self.token.dropLast(3))"}"#, status: 500),
        ])
        let sink = try sink(server)
        for _ in 0..<4 {
            let error = try #require(await ServiceSinkSupport.attempt { () async throws(SinkError) in try await sink.deliver(WebhookFixtures.fall) })
            ServiceSinkSupport.expectNoSecret(error.message, Self.token)
            ServiceSinkSupport.expectNoSecret(error.description, Self.token)
            #expect(error.message.hasPrefix("telegram/ops: \(server.baseURL) answered HTTP"))
        }
        ServiceSinkSupport.expectNoSecret("\(sink) \(String(reflecting: sink)) \(sink.builder)", Self.token)

        let down = try LoopbackHTTPServer()
        down.stop()
        let unreachable = try self.sink(down)
        let refused = try #require(await ServiceSinkSupport.attempt { () async throws(SinkError) in
            try await unreachable.deliver(WebhookFixtures.fall)
        })
        #expect(refused.isRetryable)
        ServiceSinkSupport.expectNoSecret(refused.message, Self.token)
    }

    @Test func unusableSettingsAreRefusedWithoutShowingTheToken() throws {
        #expect(throws: ServiceConfigurationError.self) {
            try TelegramSink(name: "ops", settings: TelegramSettings(token: "12/../x?y", chat: "1", apiURL: "https://api.telegram.org"),
                             transport: transport)
        }
        do {
            _ = try TelegramSink(name: "ops", settings: TelegramSettings(token: Self.token, chat: "my chat", apiURL: "https://api.telegram.org"),
                                 transport: transport)
            Issue.record("a chat with a space was accepted")
        } catch {
            #expect(error.message == "chat: expected a chat id such as -1001234567890 or a channel such as @my_channel, found 'my chat'")
        }
    }
}
