import PriceWatchCore
import Synchronization

/// The current sinks by configured name, with their delivery settings; replaced as a whole
/// when the configuration reloads, so deliveries already in flight finish with the sink they
/// started with.
public final class SinkRegistry: Sendable {
    private struct Entries {
        var sinks: [String: any NotificationSink]
        var settings: [String: SinkDeliverySettings]
    }

    private let entries: Mutex<Entries>

    /// Sinks with the dispatcher's default settings, or those in `settings`.
    public init(_ sinks: [String: any NotificationSink] = [:], settings: [String: SinkDeliverySettings] = [:]) {
        entries = Mutex(Entries(sinks: sinks, settings: settings))
    }

    /// Sinks with the settings of their `[sinks.NAME]` tables.
    public convenience init(_ sinks: [String: any NotificationSink], configuration: [SinkConfiguration]) {
        self.init(sinks, settings: Self.settings(configuration))
    }

    /// Switches to new sinks; sinks absent from `configuration` get the dispatcher's defaults.
    public func replace(with sinks: [String: any NotificationSink], configuration: [SinkConfiguration] = []) {
        let settings = Self.settings(configuration)
        entries.withLock {
            $0.sinks = sinks
            $0.settings = settings
        }
    }

    /// Every current sink by name.
    public var all: [String: any NotificationSink] {
        entries.withLock { $0.sinks }
    }

    public func sink(named name: String) -> (any NotificationSink)? {
        entries.withLock { $0.sinks[name] }
    }

    /// The delivery settings of a sink (all defaults for one not configured).
    public func settings(named name: String) -> SinkDeliverySettings {
        entries.withLock { $0.settings[name] } ?? SinkDeliverySettings()
    }

    private static func settings(_ configuration: [SinkConfiguration]) -> [String: SinkDeliverySettings] {
        Dictionary(configuration.map { ($0.name, SinkDeliverySettings($0)) }, uniquingKeysWith: { first, _ in first })
    }
}
