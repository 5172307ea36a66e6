import CMosquitto
import Foundation
import PriceWatchTestKit
@testable import PriceWatchSinks
import Synchronization

/// A subscriber to every topic of a test broker (`#`, QoS 1) through libmosquitto, recording
/// what arrives, retained messages included; and a publisher for what Home Assistant would
/// send (its birth message).
final class MQTTTestSubscriber: @unchecked Sendable {
    // @unchecked: `client` and `loop` are set once in init; the client is used through
    // libmosquitto's own locking.

    struct Message: Sendable, Equatable {
        let topic: String
        let payload: String
        let retained: Bool
        let qos: Int32
    }

    private let client: OpaquePointer
    /// The network loop: the sink's own, which waits with poll(2) (libmosquitto's select(2)
    /// loop fails once the test process has more than 1,023 files open).
    private var loop: MosquittoNetworkLoop?
    private let received = Mutex<[Message]>([])
    private let subscribed = Mutex(false)
    /// What the client went through (CONNACK codes, disconnections, libmosquitto's log), for
    /// a wait's failure message.
    private let events = Mutex<[String]>([])

    init(port: UInt16, id: String = "test-subscriber-\(UUID().uuidString.prefix(8))", username: String? = nil, password: String? = nil) throws {
        mosquitto_lib_init()
        guard let client = mosquitto_new(id, true, nil) else { throw SubscriberError(description: "mosquitto_new failed") }
        self.client = client
        mosquitto_user_data_set(client, Unmanaged.passUnretained(self).toOpaque())
        if let username { mosquitto_username_pw_set(client, username, password) }
        mosquitto_connect_callback_set(client) { client, userdata, rc in
            guard let userdata else { return }
            let subscriber = Unmanaged<MQTTTestSubscriber>.fromOpaque(userdata).takeUnretainedValue()
            subscriber.record("CONNACK \(rc)")
            guard rc == 0, let client else { return }
            let subscribe = mosquitto_subscribe(client, nil, "#", 1)
            subscriber.record("SUBSCRIBE # sent: rc \(subscribe)")
        }
        mosquitto_subscribe_callback_set(client) { _, userdata, _, _, _ in
            guard let userdata else { return }
            let subscriber = Unmanaged<MQTTTestSubscriber>.fromOpaque(userdata).takeUnretainedValue()
            subscriber.record("SUBACK")
            subscriber.subscribed.withLock { $0 = true }
        }
        mosquitto_disconnect_callback_set(client) { _, userdata, rc in
            guard let userdata else { return }
            Unmanaged<MQTTTestSubscriber>.fromOpaque(userdata).takeUnretainedValue().record("disconnected: rc \(rc)")
        }
        mosquitto_log_callback_set(client) { _, userdata, _, line in
            guard let userdata, let line else { return }
            Unmanaged<MQTTTestSubscriber>.fromOpaque(userdata).takeUnretainedValue().record(String(cString: line))
        }
        mosquitto_message_callback_set(client) { _, userdata, message in
            guard let userdata, let message = message?.pointee, let topic = message.topic else { return }
            let payload = message.payload.map {
                String(decoding: UnsafeRawBufferPointer(start: $0, count: Int(message.payloadlen)), as: UTF8.self)
            } ?? ""
            let subscriber = Unmanaged<MQTTTestSubscriber>.fromOpaque(userdata).takeUnretainedValue()
            subscriber.received.withLock {
                $0.append(Message(topic: String(cString: topic), payload: payload, retained: message.retain, qos: message.qos))
            }
        }
        let rc = mosquitto_connect(client, "127.0.0.1", Int32(port), 30)
        record("connect to 127.0.0.1:\(port): rc \(rc)")
        guard rc == MOSQ_ERR_SUCCESS.rawValue else {
            mosquitto_destroy(client)
            throw SubscriberError(description: "the subscriber could not connect to 127.0.0.1:\(port): rc \(rc)")
        }
        loop = MosquittoNetworkLoop(client: client, name: "test-subscriber")
        if loop == nil {
            mosquitto_destroy(client)
            throw SubscriberError(description: "the subscriber could not start its network loop: errno \(errno)")
        }
    }

    /// Whether the broker acknowledged the subscription (SUBACK).
    var isSubscribed: Bool { subscribed.withLock { $0 } }

    /// Waits until the broker acknowledged the subscription; a timeout says what the client
    /// and the broker went through.
    func waitUntilSubscribed(to broker: MosquittoTestBroker) async throws {
        try await waitUntil("the test subscriber to subscribe to # on 127.0.0.1:\(broker.port) (subscriber: \(history); broker log: \(broker.logText))") {
            isSubscribed
        }
    }

    /// What the client went through, oldest first.
    var history: String { events.withLock { $0.joined(separator: "; ") } }

    private func record(_ event: String) { events.withLock { $0.append(event) } }

    var messages: [Message] { received.withLock { $0 } }

    /// The last message on `topic`, if any arrived.
    func last(on topic: String) -> Message? { messages.last { $0.topic == topic } }

    func publish(_ topic: String, _ payload: String, retain: Bool = false) {
        var bytes = Array(payload.utf8)
        let count = Int32(bytes.count)
        _ = bytes.withUnsafeMutableBytes { mosquitto_publish(client, nil, topic, count, $0.baseAddress, 1, retain) }
        loop?.wake()
    }

    func clear() { received.withLock { $0.removeAll() } }

    /// Returns once every message the broker had routed to this subscriber before now has
    /// arrived: a marker published now comes back after them (the broker queues this
    /// subscriber's messages in order), so a PUBACK a publisher got is followed here by its
    /// message before the marker.
    func sync() async throws {
        let marker = "test/barrier/\(UUID().uuidString)"
        publish(marker, "barrier")
        try await waitUntil("the barrier message on \(marker)") { last(on: marker) != nil }
    }

    func stop() {
        loop?.reconnects = false
        mosquitto_disconnect(client)
        loop?.wake()
        loop?.stop()
    }

    deinit {
        stop()
        mosquitto_destroy(client)
    }

    struct SubscriberError: Error, CustomStringConvertible {
        let description: String
    }
}
