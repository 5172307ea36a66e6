import Foundation
import PriceWatchCore
import PriceWatchCurl
import PriceWatchSinks
import PriceWatchTestKit
import Testing

/// The webhook sink over the real libcurl transport against a real HTTP receiver on
/// loopback: exact payloads on the wire for every format, signatures verified by the
/// Standard Webhooks reference library for Python, and the receiver's faults.
@Suite struct WebhookReceiverTests {
    static let secret = "whsec_" + "c2VjcmV0LWtleS1mb3ItcHJpY2V3YXRjaC10ZXN0cw=="
    let transport = CurlHTTPTransport()

    /// The wall clock of now: the reference library refuses timestamps 5 minutes off its own.
    static func currentClock() -> ManualWallClock {
        ManualWallClock(Timestamp(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))))
    }

    func sink(_ url: String, format: WebhookFormat = .json, headers: [HTTPHeader] = [], timeout: Duration = .seconds(10),
              secret: String? = Self.secret, clock: ManualWallClock = currentClock()) throws -> WebhookSink {
        try WebhookSink(name: "ops", settings: .init(url: url, format: format, headers: headers, timeout: timeout, secret: secret),
                        transport: transport, wallClock: clock.function)
    }

    @Test(arguments: WebhookFormat.allCases)
    func everyFormatArrivesExactlyAndSigned(format: WebhookFormat) async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/hook") { _ in .status(200, body: "ok") }
        let clock = Self.currentClock()
        let sink = try sink(server.baseURL + "/hook", format: format, headers: [HTTPHeader("X-Team", "ops")], clock: clock)

        try await sink.deliver(WebhookFixtures.fall)
        clock.advance(seconds: 30)
        try await sink.deliver(WebhookFixtures.fall)   // a retry: the same id, a new timestamp

        let requests = server.requests
        try #require(requests.count == 2)
        for (index, request) in requests.enumerated() {
            #expect(request.method == "POST")
            #expect(request.bodyText == WebhookFixtures.fallBodies[format])
            for header in WebhookFixtures.fallHeaders[format] ?? [] {
                #expect(request.header(header.name) == header.value)
            }
            #expect(request.header("X-Team") == "ops")
            #expect(request.header("webhook-id") == WebhookFixtures.fall.id)
            #expect(request.header("webhook-timestamp") == String(clock.now.seconds - (index == 0 ? 30 : 0)))
        }
        let verdicts = try await StandardWebhooksVerifier.verify(requests, secret: Self.secret)
        #expect(verdicts == ["ok \(WebhookFixtures.fall.id)", "ok \(WebhookFixtures.fall.id)"])
    }

    @Test func theVerifierRejectsAWrongSecret() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/hook") { _ in .status(204) }
        try await sink(server.baseURL + "/hook").deliver(WebhookFixtures.crossing)
        let other = "whsec_" + "b3RoZXItc2VjcmV0LWtleS1ub3QtdGhlLXNhbWU="
        let verdicts = try await StandardWebhooksVerifier.verify(server.requests, secret: other, expectingSuccess: false)
        #expect(verdicts.count == 1)
        #expect(verdicts.first?.hasPrefix("fail \(WebhookFixtures.crossing.id): rejected") == true)
    }

    @Test func serverErrorThenRetryAfterThenSuccess() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/hook", sequence: [
            .status(500, body: "internal error"),
            .status(429, headers: [HTTPHeader("Retry-After", "17")], body: "slow down"),
            .status(503, headers: [HTTPHeader("Retry-After", "Wed, 21 Oct 2015 07:28:00 GMT")]),
            .status(202),
        ])
        let sink = try sink(server.baseURL + "/hook")
        let host = server.baseURL
        let first = await attempt(sink)
        #expect(first == SinkError(retryable: true, "webhook/ops: \(host) answered HTTP 500: internal error"))
        let second = await attempt(sink)
        #expect(second == SinkError(retryable: true, "webhook/ops: \(host) answered HTTP 429: slow down (retry after 17s)", retryAfterSeconds: 17))
        let third = await attempt(sink)
        #expect(third == SinkError(retryable: true, "webhook/ops: \(host) answered HTTP 503"))
        #expect(await attempt(sink) == nil)
        #expect(server.requests.map { $0.header("webhook-id") } == Array(repeating: WebhookFixtures.fall.id, count: 4))
    }

    @Test func rejectionIsPermanentAndRedirectsAreNotFollowed() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/gone") { _ in .status(410, body: "no_service") }
        server.route("POST", "/moved") { _ in .status(301, headers: [HTTPHeader("Location", "/gone")]) }
        let gone = await attempt(try sink(server.baseURL + "/gone"))
        #expect(gone == SinkError(retryable: false, "webhook/ops: \(server.baseURL) answered HTTP 410: no_service"))
        let moved = await attempt(try sink(server.baseURL + "/moved"))
        #expect(moved?.isRetryable == false)
        #expect(server.requests.map(\.path) == ["/gone", "/moved"])
    }

    @Test func aHangingReceiverTimesOutRetryably() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/hook") { _ in .hang }
        let error = await attempt(try sink(server.baseURL + "/hook", timeout: .seconds(1)))
        #expect(error?.isRetryable == true)
        #expect(error?.message.hasPrefix("webhook/ops: \(server.baseURL): ") == true)
    }

    @Test func connectionFailuresAreRetryableAndTheSinkRecovers() async throws {
        let refused = try LoopbackHTTPServer()
        refused.stop()
        let error = await attempt(try sink(refused.baseURL + "/hook"))
        #expect(error?.isRetryable == true)
        #expect(error?.message.hasPrefix("webhook/ops: \(refused.baseURL): ") == true)

        // The same sink after a dropped connection: the next attempt goes through.
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/hook", sequence: [.closeWithoutAnswer, .status(204)])
        let sink = try sink(server.baseURL + "/hook")
        #expect(await attempt(sink)?.isRetryable == true)
        #expect(await attempt(sink) == nil)
        #expect(server.requests.count == 2)
    }

    @Test func connectionRefusedThenTheReceiverComesUpOnTheSamePort() async throws {
        let down = try LoopbackHTTPServer.onReusablePort()
        let port = down.port
        down.stop()
        let clock = Self.currentClock()
        let sink = try sink(down.baseURL + "/hook", clock: clock)   // one sink, one URL throughout

        let refused = await attempt(sink)
        #expect(refused?.isRetryable == true)
        #expect(refused?.message.hasPrefix("webhook/ops: \(down.baseURL): ") == true)

        let server = try LoopbackHTTPServer(port: port)
        defer { server.stop() }
        server.route("POST", "/hook") { _ in .status(204) }
        clock.advance(seconds: 30)
        #expect(await attempt(sink) == nil)

        let requests = server.requests
        try #require(requests.count == 1)
        #expect(requests[0].header("webhook-id") == WebhookFixtures.fall.id)
        #expect(requests[0].header("webhook-timestamp") == String(clock.now.seconds))
        let verdicts = try await StandardWebhooksVerifier.verify(requests, secret: Self.secret)
        #expect(verdicts == ["ok \(WebhookFixtures.fall.id)"])
    }

    func attempt(_ sink: WebhookSink, _ alert: Alert = WebhookFixtures.fall) async -> SinkError? {
        do {
            try await sink.deliver(alert)
            return nil
        } catch {
            return error
        }
    }
}
