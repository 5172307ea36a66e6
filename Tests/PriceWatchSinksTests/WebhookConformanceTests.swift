import PriceWatchCore
import PriceWatchCurl
import PriceWatchSinks
import PriceWatchTestKit
import Synchronization
import Testing

/// The webhook sink through the shared conformance suite, over the real libcurl transport to
/// a real HTTP server on loopback, configured with a secret in every place one can hide: the
/// signing secret, a header value, the URL's user info, path and query.
@Suite struct WebhookConformanceTests {
    final class Harness: SinkConformanceHarness {
        static let supportedBehaviours = Set(SinkReceiverBehaviour.Kind.allCases)
        static let signingKey = "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
        static let tokenInPath = "T0KEN-1N-PATH"
        static let headerToken = "Bearer h3ader-t0ken"
        static let queryToken = "q-s3cret-value"
        static let password = "pa55w0rd-in-url"

        let secrets = ["whsec_" + signingKey, signingKey, tokenInPath, headerToken, queryToken, password]
        private let server = Mutex<LoopbackHTTPServer?>(nil)
        private let transport = CurlHTTPTransport()

        deinit { server.withLock { $0?.stop() } }

        func makeSink(_ behaviour: SinkReceiverBehaviour, timeout: Duration) async throws -> any NotificationSink {
            let receiver = try LoopbackHTTPServer()
            let path = "/hooks/\(Self.tokenInPath)"
            // Receivers that echo what they got are common; the echo must not leak either.
            let echo = "echo: \(Self.headerToken) \(Self.tokenInPath)"
            switch behaviour {
            case .healthy: receiver.route("POST", path) { _ in .status(204) }
            case .temporaryFailure: receiver.route("POST", path) { _ in .status(500, body: "overloaded; \(echo)") }
            case .temporaryFailureRetryAfter(let seconds):
                receiver.route("POST", path) { _ in .status(429, headers: [HTTPHeader("Retry-After", String(seconds))], body: echo) }
            case .permanentFailure: receiver.route("POST", path) { _ in .status(404, body: "no_service; \(echo)") }
            case .hang: receiver.route("POST", path) { _ in .hang }
            case .unreachable: receiver.stop()
            }
            server.withLock { previous in
                previous?.stop()
                previous = receiver
            }
            let url = receiver.baseURL.replacing("http://", with: "http://user:\(Self.password)@") + path + "?sig=\(Self.queryToken)"
            return try WebhookSink(
                name: "ops",
                settings: .init(url: url, headers: [HTTPHeader("Authorization", Self.headerToken)], timeout: timeout,
                                secret: "whsec_" + Self.signingKey),
                transport: transport, wallClock: ManualWallClock().function)
        }

        func waitUntilReceiving() async throws {
            guard let receiver = server.withLock({ $0 }) else { return }
            try await receiver.waitForRequests(count: 1)
        }

        func receivedAlertIDs() async -> [String] {
            server.withLock { $0?.requests ?? [] }.compactMap { $0.header("webhook-id") }
        }

        func logLines() async -> [String] { [] }
    }

    @Test(arguments: SinkConformance.applicable(to: Harness.supportedBehaviours))
    func webhookSinkConforms(_ check: SinkConformance) async {
        let outcome = await check.run(on: Harness())
        #expect(outcome.failures.isEmpty, "\(outcome)")
    }

    @Test func everyCheckAppliesToTheWebhookSink() {
        #expect(SinkConformance.applicable(to: Harness.supportedBehaviours) == SinkConformance.allCases)
    }
}
