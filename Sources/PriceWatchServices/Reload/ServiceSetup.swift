import PriceWatchCore

/// A validated configuration with the adapters built for it: what the reload coordinator hands
/// every service, at start and on each reload.
public struct ServiceSetup: Sendable {
    public var configuration: Configuration
    public var providers: [String: any QuoteProvider]
    public var sinks: [String: any NotificationSink]

    public init(configuration: Configuration, providers: [String: any QuoteProvider], sinks: [String: any NotificationSink]) {
        self.configuration = configuration
        self.providers = providers
        self.sinks = sinks
    }

    /// The providers that poll under this setup (those with watched symbols), with their intervals.
    public var pollSchedule: [String: Duration] {
        var schedule: [String: Duration] = [:]
        for settings in configuration.providers
        where providers[settings.name] != nil && configuration.watchesSymbols(through: settings.name) {
            schedule[settings.name] = settings.interval.swiftDuration
        }
        return schedule
    }
}
