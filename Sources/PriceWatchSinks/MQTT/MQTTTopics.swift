/// The topics of one `mqtt` sink: under its `prefix` the alerts, prices, rule states and the
/// availability topic; under its `discovery_prefix` Home Assistant's discovery configs.
///
/// A symbol or rule id becomes one topic level with MQTT's special characters (`/`, `+`, `#`)
/// replaced by `_`; in discovery topics and `unique_id`s it becomes an object id of
/// `[a-z0-9_]` only (``objectID(_:)``), as Home Assistant requires.
public struct MQTTTopics: Sendable, Hashable {
    public var prefix: String
    public var discoveryPrefix: String

    public init(prefix: String, discoveryPrefix: String) {
        self.prefix = prefix
        self.discoveryPrefix = discoveryPrefix
    }

    /// `PREFIX/status`: `online` (retained) while connected, `offline` as the last will.
    public var status: String { "\(prefix)/status" }

    /// `PREFIX/alerts/RULE`: each alert's JSON, QoS 1, not retained.
    public func alert(rule: String) -> String { "\(prefix)/alerts/\(Self.level(rule))" }

    /// `PREFIX/notifications/KIND`: other notifications (digests, reports, tests), QoS 1.
    public func notification(kind: String) -> String { "\(prefix)/notifications/\(Self.level(kind))" }

    /// `PREFIX/price/SYMBOL`: the last price, retained.
    public func price(symbol: String) -> String { "\(prefix)/price/\(Self.level(symbol))" }

    /// `PREFIX/rule/RULE/state`: `ON` (fired) or `OFF` (armed), retained.
    public func ruleState(rule: String) -> String { "\(prefix)/rule/\(Self.level(rule))/state" }

    /// `DISCOVERY_PREFIX/status`: Home Assistant's birth (`online`) and will messages.
    public var homeAssistantStatus: String { "\(discoveryPrefix)/status" }

    /// `DISCOVERY_PREFIX/sensor/pricewatch_SYMBOL/config`.
    public func priceConfig(symbol: String) -> String {
        "\(discoveryPrefix)/sensor/\(Self.objectID(symbol))/config"
    }

    /// `DISCOVERY_PREFIX/binary_sensor/pricewatch_RULE/config`.
    public func ruleConfig(rule: String) -> String {
        "\(discoveryPrefix)/binary_sensor/\(Self.objectID(rule))/config"
    }

    /// `pricewatch_` and `name` lowercased with every character outside `[a-z0-9_]` as `_`:
    /// `BTC-USD` is `pricewatch_btc_usd`.
    public static func objectID(_ name: String) -> String {
        let characters = name.lowercased().unicodeScalars.map { scalar -> Character in
            switch scalar {
            case "a"..."z", "0"..."9", "_": Character(scalar)
            default: "_"
            }
        }
        return "pricewatch_" + String(characters)
    }

    /// `name` as one topic level: `/`, `+`, `#` and NUL replaced by `_`.
    public static func level(_ name: String) -> String {
        String(name.map { "/+#\u{0}".contains($0) ? "_" : $0 })
    }
}
