import PriceWatchCore

/// The `mqtt` sink: each alert as JSON (pricewatch's webhook payload, ``WebhookPayload``) on
/// `PREFIX/alerts/RULE` with QoS 1, not retained, delivered once the broker acknowledged it
/// (PUBACK); and, as a ``MarketStatePublisher``, the last price of each watched symbol and
/// each rule's state, retained, with Home Assistant discovery configs for them.
///
/// A connection that cannot be made or a PUBACK that does not come within `timeout` is a
/// retryable failure (the outbox retries; the sink never does); credentials the broker
/// refuses are a permanent one. Errors start with the sink's identity and name the broker by
/// scheme, host and port; they never contain the password.
///
/// Sinks built from the same name and settings (a reload that changed nothing else) share one
/// connection (``MQTTConnectionPool``), so two clients never take the same client id from
/// each other; the connection ends when the last such sink is let go.
public struct MQTTSink: NotificationSink, MarketStatePublisher, CustomStringConvertible, CustomDebugStringConvertible {
    /// The retained payload of `PREFIX/status` while connected.
    public static let online = "online"
    /// The last will on `PREFIX/status`, and what a clean shutdown publishes there.
    public static let offline = "offline"

    public let identity: String
    public let settings: MQTTSettings
    private let lifetime: MQTTConnectionLifetime

    /// A sink named `name` (identity `mqtt/NAME`). Nothing connects until the first delivery
    /// or published state.
    public init(name: String, settings: MQTTSettings) {
        identity = "mqtt/\(name)"
        self.settings = settings
        lifetime = MQTTConnectionPool.shared.lifetime(identity: identity, settings: settings)
    }

    var connection: MosquittoConnection { lifetime.connection }

    /// `mqtt/home -> mqtt://broker:1883 (prefix pricewatch)`: no credentials.
    public var description: String { "\(identity) -> \(settings.brokerDisplay) (prefix \(settings.prefix))" }

    public var debugDescription: String { description }

    public func deliver(_ alert: Alert) async throws(SinkError) {
        try await connection.publishAcknowledged(topic: settings.topics.alert(rule: alert.rule), payload: WebhookPayload.json(for: alert))
        connection.publish(ruleStates: [alert.rule: true])
    }

    /// An alert-shaped notification as an alert; another kind as JSON on
    /// `PREFIX/notifications/KIND` (`{"version":1,"type":"notification","id":…,"kind":…,
    /// "time":…,"title":…,"text":…}`), QoS 1, not retained.
    public func deliver(_ notification: OutgoingNotification) async throws(SinkError) {
        switch notification.content {
        case .alert(let alert):
            try await deliver(alert)
        case .message(let message):
            var json = JSONWriter()
            json.integer("version", WebhookPayload.version)
            json.string("type", "notification")
            json.string("id", notification.id)
            json.string("kind", notification.kind.rawValue)
            json.time("time", notification.time)
            json.string("title", message.title)
            json.string("text", message.text)
            try await connection.publishAcknowledged(topic: settings.topics.notification(kind: notification.kind.rawValue), payload: json.result)
        }
    }

    public func watch(symbols: [String], rules: [String]) {
        connection.watch(symbols: symbols, rules: rules)
    }

    public func publish(prices quotes: [Quote]) {
        connection.publish(prices: quotes)
    }

    public func publish(ruleStates: [String: Bool]) {
        connection.publish(ruleStates: ruleStates)
    }

    /// Ends the TCP connection without a DISCONNECT, as a crash would, so the broker publishes
    /// the last will; the connection then reconnects by itself. For tests (`@testable`).
    func dropConnectionUncleanly() {
        connection.dropConnectionUncleanly()
    }
}
