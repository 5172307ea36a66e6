import PriceWatchCore

/// The knobs of the polling policy and data health that every poller shares: retries,
/// unknown-symbol parking, and the two data-health thresholds from the main file.
public struct PollingSettings: Sendable, Hashable {
    /// Retries of a failed batch within one poll.
    public var backoff = PollBackoff()
    /// Unknown answers in a row after which a symbol is parked.
    public var unknownSymbolLimit = 3
    /// How often a parked symbol is asked again.
    public var unknownSymbolRecheck: Duration = .seconds(3_600)
    /// `stale_after`: warn when a symbol has had no fresh quote for this long.
    public var staleAfter: Duration = Configuration.defaultStaleAfter.swiftDuration
    /// `failure_warning_after`: warn when a provider has failed this many polls in a row.
    public var failureWarningAfter = Configuration.defaultFailureWarningAfter

    public init() {}

    /// The defaults with the data-health thresholds of `configuration`.
    public init(configuration: Configuration) {
        staleAfter = configuration.staleAfter.swiftDuration
        failureWarningAfter = configuration.failureWarningAfter
    }

    /// A fresh policy state machine with these settings.
    public func makePolicy() -> ProviderPolicy {
        ProviderPolicy(backoff: backoff, unknownSymbolLimit: unknownSymbolLimit, unknownSymbolRecheck: unknownSymbolRecheck)
    }
}
