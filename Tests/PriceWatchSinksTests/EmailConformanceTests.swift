import PriceWatchCore
import PriceWatchCurl
import PriceWatchSinks
import PriceWatchTestKit
import Synchronization
import Testing

/// The email sink through the shared conformance suite, over the real libcurl SMTP transport to
/// a real SMTP server (STARTTLS and AUTH with a password that must never leak): 250, 451 for a
/// recipient, 550 for a recipient, a server that never says a word, and a closed port. SMTP has
/// no `Retry-After`, so that check does not apply.
@Suite struct EmailConformanceTests {
    final class Harness: SinkConformanceHarness {
        static let supportedBehaviours: Set<SinkReceiverBehaviour.Kind> = [.healthy, .temporaryFailure, .permanentFailure, .hang, .unreachable]
        let secrets = [EmailTestServer.password]
        private let server = Mutex<EmailTestServer?>(nil)

        func makeSink(_ behaviour: SinkReceiverBehaviour, timeout: Duration) async throws -> any NotificationSink {
            let receiver: EmailTestServer
            switch behaviour {
            case .healthy: receiver = try await EmailTestServer(.startTLS, authenticated: true)
            case .temporaryFailure: receiver = try await EmailTestServer(.startTLS, authenticated: true, tempfail: ["ops@example.com"])
            case .permanentFailure: receiver = try await EmailTestServer(.startTLS, authenticated: true, reject: ["ops@example.com"])
            case .hang: receiver = try await EmailTestServer(.hang)
            case .unreachable: receiver = try await EmailTestServer(.closed)
            case .temporaryFailureRetryAfter: throw EmailTestServer.ServerError(description: "SMTP has no Retry-After")
            }
            server.withLock { $0 = receiver }
            let settings = EmailSettings(
                url: receiver.url, security: .startTLS, from: EmailFixtures.from, to: [EmailFixtures.address("ops@example.com")],
                username: EmailTestServer.username, password: Secret(value: EmailTestServer.password, origin: "credential smtp-password"),
                timeout: timeout, caFile: receiver.mode == .startTLS ? receiver.caFile : nil)
            return EmailSink(name: "ops", settings: settings, transport: CurlMailTransport(), now: ManualWallClock().function)
        }

        func waitUntilReceiving() async throws {
            try await server.withLock { $0 }?.waitForConnection()
        }

        func receivedAlertIDs() async -> [String] {
            let mails = (try? server.withLock { $0 }?.received()) ?? []
            return mails.flatMap { $0.message?.headers(named: "X-PriceWatch-Alert-ID") ?? [] }
        }

        func logLines() async -> [String] { [] }
    }

    @Test(arguments: SinkConformance.applicable(to: Harness.supportedBehaviours))
    func emailSinkConforms(_ check: SinkConformance) async {
        let outcome = await check.run(on: Harness())
        #expect(outcome.failures.isEmpty, "\(outcome)")
    }

    @Test func everyCheckButRetryAfterApplies() {
        #expect(SinkConformance.applicable(to: Harness.supportedBehaviours) == SinkConformance.allCases.filter { $0 != .retryAfterIsReported })
    }
}
