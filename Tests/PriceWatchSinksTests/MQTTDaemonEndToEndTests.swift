import Foundation
import PriceWatchCore
import PriceWatchTestKit
import Testing

/// `pricewatch run` with an mqtt sink against a real mosquitto (password file): the daemon
/// announces the device, mirrors the replayed prices and the rule's state, delivers the alert,
/// and says `offline` when it stops; its password is in no output line.
@Suite(.serialized, .enabled(if: MosquittoTestBroker.isInstalled, "mosquitto is not installed at /usr/sbin/mosquitto (apt install mosquitto)"))
struct MQTTDaemonEndToEndTests {
    @Test func theDaemonMirrorsPricesAndStatesAndDeliversAlerts() async throws {
        let password = "E2E-pa55word"
        let broker = try MosquittoTestBroker(credentials: (username: "pricewatch", password: password))
        defer { broker.stop() }
        try await broker.waitUntilListening()
        let subscriber = try MQTTTestSubscriber(port: broker.port, username: "pricewatch", password: password)
        try await subscriber.waitUntilSubscribed(to: broker)

        let directory = try TemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        try ReplayDaemonFiles.write(in: directory, prices: ["14", "14.5", "16", "16", "16.25"])
        let main = try String(contentsOfFile: directory.file("pricewatch.toml"), encoding: .utf8)
        try directory.write("pricewatch.toml", main + """

            [sinks.home]
            type = "mqtt"
            host = "127.0.0.1"
            port = \(broker.port)
            username = "pricewatch"
            password = { env = "PRICEWATCH_TEST_MQTT_PASSWORD" }
            client_id = "pricewatch-e2e-\(broker.port)"

            """)
        let daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path,
                                       environment: ["PRICEWATCH_TEST_MQTT_PASSWORD": password])
        let seen = { subscriber.messages.map { "\($0.topic)=\($0.payload.prefix(40))" } }

        let alert = try await waitFor("the alert on pricewatch/alerts/x-crosses-15 (got \(seen()); stderr \(daemon.errorLines))") {
            subscriber.last(on: "pricewatch/alerts/x-crosses-15")
        }
        #expect(alert.qos == 1)
        #expect(alert.payload.contains("\"rule\":\"x-crosses-15\""))
        // ON once the alert is delivered; a crossing rule is armed again at the next poll, so
        // OFF may follow: the ON must have been published, whatever came after it.
        try await waitUntil("the rule state ON (got \(seen()))") {
            subscriber.messages.contains { $0.topic == "pricewatch/rule/x-crosses-15/state" && $0.payload == "ON" }
        }
        try await waitUntil("the last price 16.25 (got \(seen()))") { subscriber.last(on: "pricewatch/price/X")?.payload == "16.25" }
        // Only changes: 16 twice in a row is published once.
        #expect(subscriber.messages.filter { $0.topic == "pricewatch/price/X" }.map(\.payload).filter { $0 == "16" }.count <= 1)
        let sensor = try #require(subscriber.last(on: "homeassistant/sensor/pricewatch_x/config"))
        #expect(sensor.payload.contains("\"state_topic\":\"pricewatch/price/X\""))
        let binary = try #require(subscriber.last(on: "homeassistant/binary_sensor/pricewatch_x_crosses_15/config"))
        #expect(binary.payload.contains("\"state_topic\":\"pricewatch/rule/x-crosses-15/state\""))
        #expect(subscriber.messages.contains { $0.topic == "pricewatch/status" && $0.payload == "online" })

        #expect(try await daemon.stop() == 0)
        try await waitUntil("offline once the daemon stopped (got \(seen()))") { subscriber.last(on: "pricewatch/status")?.payload == "offline" }
        #expect(!(daemon.outputLines + daemon.errorLines).contains { $0.contains(password) })
    }
}
