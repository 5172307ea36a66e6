import Foundation
import PriceWatchCore
import PriceWatchSinks
import PriceWatchTestKit
import Synchronization
import Testing

/// The mqtt sink through the shared conformance suite: a real mosquitto with a password file
/// (healthy; a wrong password, refused for good), a broker that refuses with "server
/// unavailable" (CONNACK 3, temporary), one that never acknowledges (PUBACK), and a closed
/// port. MQTT has no `Retry-After`, so that check does not apply.
@Suite(.serialized, .enabled(if: MosquittoTestBroker.isInstalled, "mosquitto is not installed at /usr/sbin/mosquitto (apt install mosquitto)"))
struct MQTTConformanceTests {
    final class Harness: SinkConformanceHarness {
        static let supportedBehaviours: Set<SinkReceiverBehaviour.Kind> = [.healthy, .temporaryFailure, .permanentFailure, .hang, .unreachable]
        static let username = "pricewatch"
        static let password = "Conformance-s3cret"
        static let wrongPassword = "Wrong-s3cret-too"
        let secrets = [Harness.password, Harness.wrongPassword]

        private struct Receivers {
            var broker: MosquittoTestBroker?
            var subscriber: MQTTTestSubscriber?
            var silent: SilentMQTTBroker?
            var refusing: RefusingPort?
        }

        private let receivers = Mutex(Receivers())

        func makeSink(_ behaviour: SinkReceiverBehaviour, timeout: Duration) async throws -> any NotificationSink {
            let port: UInt16
            var password = Harness.password
            switch behaviour {
            case .healthy, .permanentFailure:
                let broker = try MosquittoTestBroker(credentials: (Harness.username, Harness.password))
                receivers.withLock { $0.broker = broker }
                try await broker.waitUntilListening()
                let subscriber = try MQTTTestSubscriber(port: broker.port, username: Harness.username, password: Harness.password)
                receivers.withLock { $0.subscriber = subscriber }
                try await subscriber.waitUntilSubscribed(to: broker)
                port = broker.port
                if behaviour == .permanentFailure { password = Harness.wrongPassword }
            case .temporaryFailure, .hang:
                let silent = try SilentMQTTBroker(connackCode: behaviour == .hang ? 0 : 3)
                receivers.withLock { $0.silent = silent }
                port = silent.port
            case .unreachable:
                let refusing = try RefusingPort()
                receivers.withLock { $0.refusing = refusing }
                port = refusing.port
            case .temporaryFailureRetryAfter:
                throw MosquittoTestBroker.BrokerError(description: "MQTT has no Retry-After")
            }
            return MQTTSink(name: "ops", settings: MQTTSettings(
                host: "127.0.0.1", port: Int(port), username: Harness.username, password: password,
                clientID: "pricewatch-conformance-\(port)", discovery: false, timeout: timeout))
        }

        func waitUntilReceiving() async throws {
            let silent = receivers.withLock { $0.silent }
            try await waitUntil("the silent broker to receive a PUBLISH") { (silent?.bytesAfterConnect ?? 0) > 0 }
        }

        func receivedAlertIDs() async -> [String] {
            let subscriber = receivers.withLock { $0.subscriber }
            // The PUBACK the sink waited for comes before the broker's copy reaches us.
            try? await subscriber?.sync()
            let messages = subscriber?.messages ?? []
            return messages.filter { $0.topic.hasPrefix("pricewatch/alerts/") }.compactMap { message in
                let object = try? JSONSerialization.jsonObject(with: Data(message.payload.utf8)) as? [String: Any]
                return object?["id"] as? String
            }
        }

        func logLines() async -> [String] { [] }

        deinit {
            let receivers = receivers.withLock { $0 }
            receivers.subscriber?.stop()
            receivers.broker?.stop()
            receivers.silent?.stop()
        }
    }

    @Test(arguments: SinkConformance.applicable(to: Harness.supportedBehaviours))
    func mqttSinkConforms(_ check: SinkConformance) async {
        let outcome = await check.run(on: Harness())
        #expect(outcome.failures.isEmpty, "\(outcome)")
    }

    @Test func everyCheckButRetryAfterApplies() {
        #expect(SinkConformance.applicable(to: Harness.supportedBehaviours) == SinkConformance.allCases.filter { $0 != .retryAfterIsReported })
    }
}
