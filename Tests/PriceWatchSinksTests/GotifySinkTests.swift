import Foundation
import PriceWatchCore
import PriceWatchCurl
import PriceWatchSinks
import PriceWatchTestKit
import Testing

/// The Gotify sink over the real libcurl transport against a loopback server that checks each
/// request as Gotify's API documents it: `POST /message`, the token in `X-Gotify-Key`, a JSON
/// body with `title`, `message`, `priority` and the markdown `extras`.
@Suite struct GotifySinkTests {
    static let token = "AbCdEfGh.12345-xyz"
    let transport = CurlHTTPTransport()

    func sink(_ server: LoopbackHTTPServer, path: String = "", urgentRules: Set<String> = []) throws -> GotifySink {
        try GotifySink(name: "home", settings: GotifySettings(url: server.baseURL + path, token: Self.token), transport: transport,
                       urgentRules: urgentRules)
    }

    @Test func aMessageWithTitlePriorityAndMarkdownExtras() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/gotify/message") { _ in .json(#"{"id":25,"appid":5,"message":"…","title":"…","priority":5}"#) }
        try await sink(server, path: "/gotify/").deliver(WebhookFixtures.fall)
        try await sink(server, path: "/gotify", urgentRules: ["btc-100k"]).deliver(WebhookFixtures.crossing)
        let requests = server.requests
        try #require(requests.count == 2)
        #expect(requests.allSatisfy { $0.method == "POST" && $0.path == "/gotify/message" })
        #expect(requests.allSatisfy { $0.header("X-Gotify-Key") == Self.token && $0.header("Content-Type") == "application/json" })
        let first = try ServiceSinkSupport.json(requests[0])
        #expect(first["title"] as? String == "AAPL fall 3% from previous close")
        #expect(first["message"] as? String == #"AAPL fell 3.00% to 219.42 € \<now\> & "more"  "# + "\nsecond line")
        #expect(first["priority"] as? Int == GotifyRequestBuilder.normalPriority)
        let display = ((first["extras"] as? [String: Any])?["client::display"] as? [String: Any])?["contentType"] as? String
        #expect(display == "text/markdown")
        let second = try ServiceSinkSupport.json(requests[1])
        #expect(second["priority"] as? Int == GotifyRequestBuilder.urgentPriority)
        #expect(second["message"] as? String == #"BTC\-USD 100000.50: crosses 100000 \(up\) \(rule btc\-100k\)"#)
    }

    @Test func aProxysRateLimitIsRetryableAndABadTokenPermanent() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/message", sequence: [
            .status(429, headers: [HTTPHeader("Retry-After", "30")], body: "slow down"),
            .json(#"{"error":"Unauthorized","errorCode":401,"errorDescription":"you need to provide a valid access token or user credentials to access this api"}"#,
                  status: 401),
            .json(#"{"id":1}"#),
        ])
        let sink = try sink(server)
        let limited = await ServiceSinkSupport.attempt { () async throws(SinkError) in try await sink.deliver(WebhookFixtures.fall) }
        #expect(limited == SinkError(retryable: true, "gotify/home: \(server.baseURL) answered HTTP 429: slow down (retry after 30s)", retryAfterSeconds: 30))
        let refused = await ServiceSinkSupport.attempt { () async throws(SinkError) in try await sink.deliver(WebhookFixtures.fall) }
        #expect(refused == SinkError(retryable: false, "gotify/home: \(server.baseURL) answered HTTP 401: Unauthorized: "
            + "you need to provide a valid access token or user credentials to access this api"))
        #expect(await ServiceSinkSupport.attempt { () async throws(SinkError) in try await sink.deliver(WebhookFixtures.fall) } == nil)
    }

    @Test func serverErrorsAreRetryable() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/message") { _ in .status(500, body: "database is locked") }
        let built = try sink(server)
        let error = await ServiceSinkSupport.attempt { () async throws(SinkError) in try await built.deliver(WebhookFixtures.fall) }
        #expect(error == SinkError(retryable: true, "gotify/home: \(server.baseURL) answered HTTP 500: database is locked"))
    }

    @Test func anEchoedTokenNeverReachesTheError() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/message", sequence: [
            .json(#"{"error":"Unauthorized","errorCode":401,"errorDescription":"token \#(Self.token) is unknown"}"#, status: 401),
            .text("X-Gotify-Key: \(Self.token.dropFirst(2))", status: 502),
        ])
        let sink = try sink(server)
        for _ in 0..<2 {
            let error = try #require(await ServiceSinkSupport.attempt { () async throws(SinkError) in try await sink.deliver(WebhookFixtures.fall) })
            ServiceSinkSupport.expectNoSecret(error.message, Self.token)
        }
        ServiceSinkSupport.expectNoSecret("\(sink) \(sink.builder)", Self.token)
    }
}
