import PriceWatchCore

/// Home Assistant's MQTT discovery configs (retained JSON on
/// `DISCOVERY_PREFIX/COMPONENT/OBJECT_ID/config`): a `sensor` per watched symbol, its state the
/// last price; a `binary_sensor` per rule, `ON` when it has fired. All belong to one device,
/// `pricewatch`, and are available while `PREFIX/status` is `online`.
public enum HomeAssistantDiscovery {
    /// The config of the price sensor of `symbol`.
    public static func priceSensor(symbol: String, topics: MQTTTopics) -> String {
        var json = JSONWriter()
        json.string("name", "\(symbol) price")
        json.string("unique_id", MQTTTopics.objectID(symbol) + "_price")
        json.string("object_id", MQTTTopics.objectID(symbol))
        json.string("state_topic", topics.price(symbol: symbol))
        json.string("state_class", "measurement")
        json.string("icon", "mdi:chart-line")
        common(&json, topics: topics)
        return json.result
    }

    /// The config of the binary sensor of `rule`: on once it has fired, off while armed.
    public static func ruleSensor(rule: String, topics: MQTTTopics) -> String {
        var json = JSONWriter()
        json.string("name", "\(rule) fired")
        json.string("unique_id", MQTTTopics.objectID(rule) + "_rule")
        json.string("object_id", MQTTTopics.objectID(rule))
        json.string("state_topic", topics.ruleState(rule: rule))
        json.string("payload_on", ruleFired)
        json.string("payload_off", ruleArmed)
        json.string("icon", "mdi:bell-ring")
        common(&json, topics: topics)
        return json.result
    }

    /// The payload of a rule that has fired.
    public static let ruleFired = "ON"
    /// The payload of a rule that is armed.
    public static let ruleArmed = "OFF"

    /// Availability and the device, the same in every config.
    private static func common(_ json: inout JSONWriter, topics: MQTTTopics) {
        json.string("availability_topic", topics.status)
        json.string("payload_available", MQTTSink.online)
        json.string("payload_not_available", MQTTSink.offline)
        var device = JSONWriter()
        device.strings("identifiers", ["pricewatch"])
        device.string("name", "pricewatch")
        device.string("model", "pricewatch price-alert daemon")
        device.string("manufacturer", "pricewatch")
        device.string("sw_version", PriceWatchVersion.current)
        json.raw("device", device.result)
    }
}
