import Foundation
import PriceWatchCore
// `@testable` for `MQTTSink.dropConnectionUncleanly()`, which stands in for a crash.
@testable import PriceWatchSinks
import PriceWatchTestKit
import Testing

/// The `mqtt` sink against a real `mosquitto` broker on loopback, read back by a subscriber
/// through libmosquitto: alerts with QoS 1, retained prices and rule states, Home Assistant
/// discovery (and its republication on Home Assistant's birth message), the last will, and
/// password authentication.
@Suite(.serialized, .enabled(if: MosquittoTestBroker.isInstalled, "mosquitto is not installed at /usr/sbin/mosquitto (apt install mosquitto)"))
struct MQTTBrokerTests {
    static let quote = Quote(symbol: "BTC-USD", price: WebhookFixtures.decimal("100000.5"), time: Timestamp(seconds: 1_733_356_800), currency: "USD")

    func sink(_ broker: MosquittoTestBroker, name: String, username: String? = nil, password: String? = nil) -> MQTTSink {
        MQTTSink(name: name, settings: MQTTSettings(host: "127.0.0.1", port: Int(broker.port), username: username, password: password,
                                                    clientID: "pricewatch-test-\(name)-\(broker.port)", timeout: .seconds(20)))
    }

    func subscriber(_ broker: MosquittoTestBroker, username: String? = nil, password: String? = nil) async throws -> MQTTTestSubscriber {
        let subscriber = try MQTTTestSubscriber(port: broker.port, username: username, password: password)
        try await subscriber.waitUntilSubscribed(to: broker)
        return subscriber
    }

    @Test func alertIsPublishedWithQoS1NotRetainedAndMarksTheRuleFired() async throws {
        let broker = try MosquittoTestBroker()
        defer { broker.stop() }
        try await broker.waitUntilListening()
        let live = try await subscriber(broker)
        let sink = sink(broker, name: "alerts")
        try await sink.deliver(WebhookFixtures.fall)

        let alert = try await waitFor("the alert on pricewatch/alerts/aapl-drop (got \(live.messages.map(\.topic)))") {
            live.last(on: "pricewatch/alerts/aapl-drop")
        }
        #expect(alert.payload == WebhookPayload.json(for: WebhookFixtures.fall))
        #expect(alert.qos == 1)
        #expect(alert.retained == false)
        let state = try await waitFor("the rule state on pricewatch/rule/aapl-drop/state (got \(live.messages.map(\.topic)))") {
            live.last(on: "pricewatch/rule/aapl-drop/state")
        }
        #expect(state.payload == "ON")

        // A subscriber arriving later gets the retained values, and no alert.
        let late = try await subscriber(broker)
        let status = try await waitFor("the retained status (got \(late.messages.map(\.topic)))") { late.last(on: "pricewatch/status") }
        #expect(status.payload == "online")
        #expect(status.retained)
        let retainedState = try await waitFor("the retained rule state (got \(late.messages.map(\.topic)))") {
            late.last(on: "pricewatch/rule/aapl-drop/state")
        }
        #expect(retainedState.retained && retainedState.payload == "ON")
        #expect(late.last(on: "pricewatch/alerts/aapl-drop") == nil)
    }

    /// libmosquitto's own loop waits with select(2), which takes no descriptor above 1,023:
    /// with that many files open (the whole test suite has about 1,400), its thread ended
    /// silently and no CONNACK was ever read. The sink's loop polls instead. Every descriptor
    /// below 1,100 is taken first, so the sink's socket gets a number above it (unless
    /// another test closes one meanwhile: alone, this always fails with select).
    @Test(.enabled(if: DescriptorFiller.canOpen(1_200), "the open-files limit is below 1,200 and cannot be raised"))
    func aSocketNumberAbove1023IsServed() async throws {
        let broker = try MosquittoTestBroker()
        defer { broker.stop() }
        try await broker.waitUntilListening()
        let filler = try DescriptorFiller(below: 1_100)
        defer { filler.close() }
        let sink = sink(broker, name: "many-files")
        try await sink.deliver(WebhookFixtures.fall)
        filler.close()
        let live = try await subscriber(broker)
        let state = try await waitFor("the retained rule state (got \(live.messages.map(\.topic)))") {
            live.last(on: "pricewatch/rule/aapl-drop/state")
        }
        #expect(state.payload == "ON")
    }

    @Test func discoveryConfigsAndPricesAreRetainedAndRepublishedOnBirth() async throws {
        let broker = try MosquittoTestBroker()
        defer { broker.stop() }
        try await broker.waitUntilListening()
        let live = try await subscriber(broker)
        let sink = sink(broker, name: "home")
        sink.watch(symbols: ["BTC-USD"], rules: ["btc-100k"])
        sink.publish(prices: [Self.quote])
        sink.publish(ruleStates: ["btc-100k": false])
        _ = try await waitFor("the price on pricewatch/price/BTC-USD (got \(live.messages.map(\.topic)))") {
            live.last(on: "pricewatch/price/BTC-USD")
        }
        // The same price again is not published again; a new one is.
        sink.publish(prices: [Self.quote])
        var moved = Self.quote
        moved.price = WebhookFixtures.decimal("100001")
        moved.time = Timestamp(seconds: 1_733_356_860)
        sink.publish(prices: [moved])
        try await waitUntil("the new price 100001 (got \(live.messages.filter { $0.topic == "pricewatch/price/BTC-USD" }.map(\.payload)))") {
            live.last(on: "pricewatch/price/BTC-USD")?.payload == "100001"
        }
        #expect(live.messages.filter { $0.topic == "pricewatch/price/BTC-USD" }.map(\.payload) == ["100000.5", "100001"])

        let late = try await subscriber(broker)
        let sensorTopic = "homeassistant/sensor/pricewatch_btc_usd/config"
        let binaryTopic = "homeassistant/binary_sensor/pricewatch_btc_100k/config"
        let sensor = try await waitFor("the retained sensor config (got \(late.messages.map(\.topic)))") { late.last(on: sensorTopic) }
        let binary = try await waitFor("the retained binary_sensor config (got \(late.messages.map(\.topic)))") { late.last(on: binaryTopic) }
        let price = try await waitFor("the retained price (got \(late.messages.map(\.topic)))") { late.last(on: "pricewatch/price/BTC-USD") }
        let state = try await waitFor("the retained rule state (got \(late.messages.map(\.topic)))") { late.last(on: "pricewatch/rule/btc-100k/state") }
        #expect(sensor.retained && binary.retained && price.retained && state.retained)
        #expect(price.payload == "100001")
        #expect(state.payload == "OFF")

        let sensorConfig = try Self.object(sensor.payload)
        #expect(sensorConfig["unique_id"] as? String == "pricewatch_btc_usd_price")
        #expect(sensorConfig["name"] as? String == "BTC-USD price")
        #expect(sensorConfig["state_topic"] as? String == "pricewatch/price/BTC-USD")
        #expect(sensorConfig["availability_topic"] as? String == "pricewatch/status")
        #expect(sensorConfig["payload_available"] as? String == "online")
        #expect(sensorConfig["payload_not_available"] as? String == "offline")
        let device = try #require(sensorConfig["device"] as? [String: Any])
        #expect(device["identifiers"] as? [String] == ["pricewatch"])
        #expect(device["name"] as? String == "pricewatch")
        #expect(device["model"] as? String != nil)
        #expect(device["sw_version"] as? String == PriceWatchVersion.current)

        let binaryConfig = try Self.object(binary.payload)
        #expect(binaryConfig["unique_id"] as? String == "pricewatch_btc_100k_rule")
        #expect(binaryConfig["state_topic"] as? String == "pricewatch/rule/btc-100k/state")
        #expect(binaryConfig["payload_on"] as? String == "ON")
        #expect(binaryConfig["payload_off"] as? String == "OFF")
        #expect(binaryConfig["availability_topic"] as? String == "pricewatch/status")
        #expect((binaryConfig["device"] as? [String: Any])?["identifiers"] as? [String] == ["pricewatch"])

        // Home Assistant's birth message: the configs come again.
        live.clear()
        late.publish("homeassistant/status", "online")
        _ = try await waitFor("the sensor config again after the birth message (got \(live.messages.map(\.topic)))") { live.last(on: sensorTopic) }
        _ = try await waitFor("the binary_sensor config again after the birth message (got \(live.messages.map(\.topic)))") { live.last(on: binaryTopic) }

        // A symbol no longer watched: its config is cleared (empty retained payload).
        sink.watch(symbols: [], rules: ["btc-100k"])
        try await waitUntil("the sensor config cleared (got \(live.messages.filter { $0.topic == sensorTopic }.map(\.payload)))") {
            live.last(on: sensorTopic)?.payload == ""
        }
    }

    @Test func lastWillIsOfflineWhenTheConnectionDropsAndOnlineAfterReconnecting() async throws {
        let broker = try MosquittoTestBroker()
        defer { broker.stop() }
        try await broker.waitUntilListening()
        let live = try await subscriber(broker)
        let sink = sink(broker, name: "will")
        try await sink.deliver(WebhookFixtures.crossing)
        try await waitUntil("online on pricewatch/status (got \(live.messages.map(\.topic)))") {
            live.last(on: "pricewatch/status")?.payload == "online"
        }
        live.clear()
        sink.dropConnectionUncleanly()
        try await waitUntil("the last will offline on pricewatch/status (got \(live.messages.map { "\($0.topic)=\($0.payload)" }))") {
            live.messages.contains { $0.topic == "pricewatch/status" && $0.payload == "offline" }
        }
        try await waitUntil("online again after the reconnect (got \(live.messages.map { "\($0.topic)=\($0.payload)" }))") {
            live.last(on: "pricewatch/status")?.payload == "online"
        }
        // The reconnected session delivers again.
        try await sink.deliver(WebhookFixtures.fall)
    }

    @Test func passwordAuthenticationAndARefusedPasswordIsPermanentAndNeverShown() async throws {
        let broker = try MosquittoTestBroker(credentials: (username: "pricewatch", password: "c0rrect-Horse"))
        defer { broker.stop() }
        try await broker.waitUntilListening()
        let live = try await subscriber(broker, username: "pricewatch", password: "c0rrect-Horse")
        try await sink(broker, name: "authorised", username: "pricewatch", password: "c0rrect-Horse").deliver(WebhookFixtures.fall)
        _ = try await waitFor("the alert from the authenticated sink (got \(live.messages.map(\.topic)))") {
            live.last(on: "pricewatch/alerts/aapl-drop")
        }

        let wrong = "wr0ng-Battery-staple"
        do {
            try await sink(broker, name: "refused", username: "pricewatch", password: wrong).deliver(WebhookFixtures.fall)
            Issue.record("a wrong password was accepted")
        } catch {
            #expect(!error.isRetryable, "a refused password is permanent: \(error.message)")
            #expect(error.message.hasPrefix("mqtt/refused: "))
            #expect(error.message.contains("127.0.0.1:\(broker.port)"))
            #expect(error.message.contains("refused the connection"), "\(error.message)")
            #expect(!error.message.contains(wrong))
            #expect(!error.message.contains("c0rrect"))
        }
    }

    @Test func lettingTheLastSinkGoPublishesOfflineAndDisconnects() async throws {
        let broker = try MosquittoTestBroker()
        defer { broker.stop() }
        try await broker.waitUntilListening()
        let live = try await subscriber(broker)
        do {
            let sink = sink(broker, name: "closing")
            try await sink.deliver(WebhookFixtures.fall)
            try await waitUntil("online on pricewatch/status (got \(live.messages.map(\.topic)))") {
                live.last(on: "pricewatch/status")?.payload == "online"
            }
        }
        try await waitUntil("offline on pricewatch/status once the sink is gone (got \(live.messages.map { "\($0.topic)=\($0.payload)" }))") {
            live.last(on: "pricewatch/status")?.payload == "offline"
        }
        try await waitUntil("the client's clean disconnect in the broker's log (log: \(broker.logText))") {
            broker.logText.contains("Received DISCONNECT from pricewatch-test-closing-\(broker.port)")
        }
    }

    @Test func aCommandsSinkDeliversWithoutTouchingTheStatus() async throws {
        let broker = try MosquittoTestBroker()
        defer { broker.stop() }
        try await broker.waitUntilListening()
        let live = try await subscriber(broker)
        var settings = sink(broker, name: "command").settings
        settings.announcesAvailability = false
        do {
            let sink = MQTTSink(name: "command", settings: settings)
            try await sink.deliver(WebhookFixtures.fall)
            _ = try await waitFor("the alert (got \(live.messages.map(\.topic)))") { live.last(on: "pricewatch/alerts/aapl-drop") }
            sink.dropConnectionUncleanly()
        }
        try await waitUntil("the command's client to be gone (log: \(broker.logText))") {
            broker.logText.contains("pricewatch-test-command-\(broker.port) closed its connection")
                || broker.logText.contains("Received DISCONNECT from pricewatch-test-command-\(broker.port)")
        }
        #expect(live.last(on: "pricewatch/status") == nil, "\(live.messages.map { "\($0.topic)=\($0.payload)" })")
    }

    @Test func tlsWithTheBrokersCertificateDeliversAndAnUntrustedOneIsRefused() async throws {
        let broker = try MosquittoTestBroker(tls: true)
        defer { broker.stop() }
        try await broker.waitUntilListening()
        var settings = MQTTSettings(host: "127.0.0.1", port: Int(broker.port), clientID: "pricewatch-test-tls-\(broker.port)",
                                    discovery: false, timeout: .seconds(20))
        settings.tls = true
        settings.caFile = broker.certificate
        try await MQTTSink(name: "tls", settings: settings).deliver(WebhookFixtures.fall)
        try await waitUntil("the alert over TLS in the broker's log (log: \(broker.logText))") {
            broker.logText.contains("Received PUBLISH from pricewatch-test-tls-\(broker.port)")
                && broker.logText.contains("'pricewatch/alerts/aapl-drop'")
        }

        // The system's CAs do not know the self-signed certificate.
        settings.caFile = nil
        settings.clientID += "-untrusted"
        settings.timeout = .seconds(2)
        do {
            try await MQTTSink(name: "untrusted", settings: settings).deliver(WebhookFixtures.fall)
            Issue.record("delivered to a broker whose certificate nobody trusts")
        } catch {
            #expect(error.isRetryable, "\(error.message)")
            #expect(error.message.hasPrefix("mqtt/untrusted: "))
        }
    }

    /// A reload that changed a sink's settings: the new sink's connection retires the old one
    /// (offline, DISCONNECT) before it connects under the same client id, so the two never
    /// take the session from each other.
    @Test func aSinkWithChangedSettingsRetiresTheOldConnection() async throws {
        let broker = try MosquittoTestBroker()
        defer { broker.stop() }
        try await broker.waitUntilListening()
        let live = try await subscriber(broker)
        let old = sink(broker, name: "reloaded")
        try await old.deliver(WebhookFixtures.fall)
        var changed = old.settings
        changed.timeout = .seconds(21)
        let new = MQTTSink(name: "reloaded", settings: changed)
        try await new.deliver(WebhookFixtures.crossing)
        let statuses = { live.messages.filter { $0.topic == "pricewatch/status" }.map(\.payload) }
        try await waitUntil("online, offline, online on pricewatch/status (got \(statuses()))") { statuses() == ["online", "offline", "online"] }
        #expect(!broker.logText.contains("already connected"), "the two connections took the session from each other")
        do {
            try await old.deliver(WebhookFixtures.fall)
            Issue.record("the retired connection delivered")
        } catch {
            #expect(error.isRetryable, "\(error.message)")
        }
    }

    static func object(_ json: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "not a JSON object: \(json)")
    }
}

/// The `mqtt` sink without a broker, and its configuration.
struct MQTTSinkTests {
    @Test func aBrokerThatIsDownIsATransientFailureWithoutThePassword() async throws {
        let refusing = try RefusingPort()
        let password = "hunter2-Secret"
        let sink = MQTTSink(name: "down", settings: MQTTSettings(host: "127.0.0.1", port: Int(refusing.port), username: "u", password: password,
                                                                 clientID: "pricewatch-test-down", timeout: .seconds(5)))
        do {
            try await sink.deliver(WebhookFixtures.fall)
            Issue.record("delivered to a port that refuses connections")
        } catch {
            #expect(error.isRetryable, "a broker that is down is transient: \(error.message)")
            #expect(error.message.hasPrefix("mqtt/down: "))
            #expect(error.message.contains("mqtt://127.0.0.1:\(refusing.port)"), "\(error.message)")
            #expect(error.message.contains("Connection refused"), "\(error.message)")
            #expect(!error.message.contains(password))
        }
        #expect(!"\(sink.settings)".contains(password))
        #expect(!"\(sink)".contains(password))
    }

    @Test func aPublishTheBrokerDoesNotAcknowledgeIsATransientFailure() async throws {
        let broker = try SilentMQTTBroker()
        defer { broker.stop() }
        let sink = MQTTSink(name: "silent", settings: MQTTSettings(host: "127.0.0.1", port: Int(broker.port), clientID: "pricewatch-test-silent",
                                                                   discovery: false, timeout: .seconds(15)))
        do {
            try await sink.deliver(WebhookFixtures.fall)
            Issue.record("delivered without a PUBACK")
        } catch {
            #expect(error.isRetryable, "\(error.message)")
            #expect(error.message.hasPrefix("mqtt/silent: "))
            #expect(error.message.contains("PUBACK"), "\(error.message)")
        }
        #expect(broker.bytesAfterConnect > 0, "the broker received no PUBLISH")
    }

    @Test func settingsFromTheTableWithDefaults() {
        let options = MQTTSink.schema.filling(AdapterOptions([
            "host": .string("broker.lan"),
            "password": .secret(Secret(value: "pw", origin: "test")),
        ]))
        let settings = MQTTSink.make(SinkConfiguration(name: "home", type: "mqtt", options: options))
        #expect(settings.host == "broker.lan")
        #expect(settings.port == 1883)
        #expect(settings.password == "pw")
        #expect(settings.tls == false)
        #expect(settings.prefix == "pricewatch")
        #expect(settings.clientID == "pricewatch-home")
        #expect(settings.discovery)
        #expect(settings.discoveryPrefix == "homeassistant")
        #expect(settings.timeout == .seconds(10))
        #expect(!settings.description.contains("pw,"))
    }

    @Test func aCommandsSinkHasItsOwnCleanSessionAndAnnouncesNothing() {
        let options = MQTTSink.schema.filling(AdapterOptions(["host": .string("broker.lan")]))
        let settings = MQTTSink.make(SinkConfiguration(name: "home", type: "mqtt", options: options), forDaemon: false)
        #expect(settings.clientID.hasPrefix("pricewatch-home-cli-"))
        #expect(!settings.announcesAvailability)
        let context = AdapterContext(http: UnusedHTTPTransport(), wallClock: { Timestamp(seconds: 0) }, mainFile: "test.toml")
        let built = MQTTSink.kind.make(SinkConfiguration(name: "home", type: "mqtt", options: options), context)
        #expect((built.adapter as? MQTTSink)?.settings.announcesAvailability == false)
        let daemon = AdapterContext(http: UnusedHTTPTransport(), wallClock: { Timestamp(seconds: 0) }, mainFile: "test.toml", forDaemon: true)
        let daemonSink = MQTTSink.kind.make(SinkConfiguration(name: "home", type: "mqtt", options: options), daemon).adapter as? MQTTSink
        #expect(daemonSink?.settings.clientID == "pricewatch-home")
        #expect(daemonSink?.settings.announcesAvailability == true)
    }

    struct UnusedHTTPTransport: HTTPTransport {
        func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
            throw HTTPTransportError(.invalidRequest, "unused")
        }
    }

    @Test func objectIDsAndTopicLevels() {
        #expect(MQTTTopics.objectID("BTC-USD") == "pricewatch_btc_usd")
        #expect(MQTTTopics.objectID("^GSPC") == "pricewatch__gspc")
        #expect(MQTTTopics.objectID("EURUSD=X") == "pricewatch_eurusd_x")
        #expect(MQTTTopics.objectID("Zoë.rule") == "pricewatch_zo__rule")
        let topics = MQTTTopics(prefix: "pw", discoveryPrefix: "ha")
        #expect(topics.price(symbol: "A/B+#") == "pw/price/A_B__")
        #expect(topics.ruleState(rule: "r1") == "pw/rule/r1/state")
        #expect(topics.priceConfig(symbol: "BTC-USD") == "ha/sensor/pricewatch_btc_usd/config")
        #expect(topics.ruleConfig(rule: "btc-100k") == "ha/binary_sensor/pricewatch_btc_100k/config")
    }
}
