import PriceWatchCore
import Synchronization

/// The running setup's providers that have a chart endpoint (``PriceChartProviding``), by
/// name: what the dashboard's symbol page asks for history the daemon did not record, through
/// the providers that already poll (their sessions, rate limits and transport), never new ones
/// built per request. Follows reloads as a ``ConfigurationSubscriber``.
public final class RunningChartProviders: ConfigurationSubscriber {
    private let providers: Mutex<[String: any PriceChartProviding]>

    public init(_ setup: ServiceSetup) {
        providers = Mutex(Self.charting(setup))
    }

    /// The provider `name` when it runs and has a chart endpoint.
    public func provider(named name: String) -> (any PriceChartProviding)? {
        providers.withLock { $0[name] }
    }

    public func apply(_ setup: ServiceSetup, now: Timestamp) async throws {}

    public func resume(with setup: ServiceSetup) async {
        let charting = Self.charting(setup)
        providers.withLock { $0 = charting }
    }

    // The setup's providers are measured wrappers; their chart endpoints are the wrapped ones'.
    private static func charting(_ setup: ServiceSetup) -> [String: any PriceChartProviding] {
        BarWarmUp.chartEndpoints(of: setup)
    }
}
