import PriceWatchCore

/// The sink registry takes the new sinks and their delivery settings; deliveries in flight
/// finish with the sink they started with.
extension SinkRegistry: ConfigurationSubscriber {
    public func apply(_ setup: ServiceSetup, now: Timestamp) async throws {
        replace(with: setup.sinks, configuration: setup.configuration.sinks)
    }
}
