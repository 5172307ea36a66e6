import Foundation
import PriceWatchCore
import PriceWatchSinks
import PriceWatchTestKit
import Synchronization

/// The shared sink conformance suite's harness for the chat and push service sinks: a fresh
/// loopback server per check that answers as the check asks (the service's success, 500, 429
/// with `Retry-After`, its permanent refusal, no answer, a closed port), every refusal echoing
/// the sink's secrets back, as services and proxies do.
final class ServiceConformanceHarness: SinkConformanceHarness {
    static let supportedBehaviours = Set(SinkReceiverBehaviour.Kind.allCases)

    /// What one sink kind needs from the harness.
    struct Service: Sendable {
        /// The method and the path prefix of the service's send request.
        var method: String
        var pathPrefix: String
        /// The service's answer to a successful send.
        var success: LoopbackResponse
        /// The service's permanent refusal (its status, its body).
        var permanentStatus: Int
        /// The sink, pointed at `baseURL`, with `timeout` as its deadline.
        var build: @Sendable (_ baseURL: String, _ timeout: Duration) throws -> any NotificationSink
        /// The alert id a request carries (or, for a service whose message has no id, the id of
        /// the alert whose message it shows); nil when it shows none.
        var alertID: @Sendable (RecordedRequest) -> String?
    }

    let service: Service
    let secrets: [String]
    private let server = Mutex<LoopbackHTTPServer?>(nil)

    init(_ service: Service, secrets: [String]) {
        self.service = service
        self.secrets = secrets
    }

    deinit { server.withLock { $0?.stop() } }

    func makeSink(_ behaviour: SinkReceiverBehaviour, timeout: Duration) async throws -> any NotificationSink {
        let receiver = try LoopbackHTTPServer()
        let echo = "echo: " + secrets.joined(separator: " ")
        let answer: LoopbackResponse?
        switch behaviour {
        case .healthy: answer = service.success
        case .temporaryFailure: answer = .status(500, body: "overloaded; \(echo)")
        case .temporaryFailureRetryAfter(let seconds):
            answer = .status(429, headers: [HTTPHeader("Retry-After", String(seconds))], body: "slow down; \(echo)")
        case .permanentFailure: answer = .status(service.permanentStatus, body: "refused; \(echo)")
        case .hang: answer = .hang
        case .unreachable:
            receiver.stop()
            answer = nil
        }
        if let answer {
            let service = service
            receiver.setFallback { request in
                request.method == service.method && request.path.hasPrefix(service.pathPrefix) ? answer : .status(418, body: "unexpected request")
            }
        }
        server.withLock { previous in
            previous?.stop()
            previous = receiver
        }
        return try service.build(receiver.baseURL, timeout)
    }

    func waitUntilReceiving() async throws {
        guard let receiver = server.withLock({ $0 }) else { return }
        try await receiver.waitForRequests(count: 1)
    }

    func receivedAlertIDs() async -> [String] {
        server.withLock { $0?.requests ?? [] }.compactMap(service.alertID)
    }

    func logLines() async -> [String] { [] }

    /// For services whose message carries no id (Telegram, Pushover, Gotify): the sample
    /// alert's id when the request shows its message, as the service's escaping writes it.
    static func sampleAlertShown(in request: RecordedRequest, escaped message: String) -> String? {
        request.bodyText.contains(message) ? SinkConformance.sampleAlert.id : nil
    }

    /// The same for a JSON body whose string field `key` shows the message.
    static func sampleAlertShown(in request: RecordedRequest, field key: String, escaped message: String) -> String? {
        let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]
        return (object?[key] as? String)?.contains(message) == true ? SinkConformance.sampleAlert.id : nil
    }
}
