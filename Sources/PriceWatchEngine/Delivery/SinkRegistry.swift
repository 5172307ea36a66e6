import PriceWatchCore
import Synchronization

/// The current sinks by configured name; replaced as a whole when the configuration reloads,
/// so deliveries already in flight finish with the sink they started with.
public final class SinkRegistry: Sendable {
    private let sinks: Mutex<[String: any NotificationSink]>

    public init(_ sinks: [String: any NotificationSink] = [:]) {
        self.sinks = Mutex(sinks)
    }

    public func replace(with sinks: [String: any NotificationSink]) {
        self.sinks.withLock { $0 = sinks }
    }

    public func sink(named name: String) -> (any NotificationSink)? {
        sinks.withLock { $0[name] }
    }
}
