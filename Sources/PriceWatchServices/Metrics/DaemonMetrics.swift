import CoreMetrics
import PriceWatchCore

/// What the services count and time, recorded through swift-metrics' API into the factory the
/// daemon gives (the HTTP endpoint's Prometheus registry; none: swift-metrics' global one,
/// which records nothing unless bootstrapped).
///
/// Names follow Prometheus conventions (`_total` counters, base units, `pricewatch_` prefix);
/// labels are bounded: provider, sink and rule names come from the configuration, error kinds
/// and outcomes from fixed lists.
public struct DaemonMetrics: Sendable {
    let factory: any MetricsFactory

    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        self.factory = factory
    }

    /// Records nothing (tests and commands).
    public static var disabled: DaemonMetrics { DaemonMetrics(factory: NOOPMetricsHandler.instance) }

    /// One poll of `provider` finished; `failure`: why the provider failed the whole poll.
    public func polled(provider: String, failure: ProviderError?, at time: Timestamp) {
        let outcome = failure == nil ? "success" : "failure"
        Counter(label: "pricewatch_polls_total", dimensions: [("provider", provider), ("outcome", outcome)], factory: factory).increment()
        if failure == nil {
            Gauge(label: "pricewatch_last_successful_poll_timestamp_seconds", dimensions: [("provider", provider)], factory: factory)
                .record(Double(time.milliseconds) / 1000)
        }
    }

    /// One request to `provider` took `duration`; `error`: how it failed.
    public func requested(provider: String, duration: Duration, error: ProviderError?) {
        Timer(label: "pricewatch_provider_request_duration_seconds", dimensions: [("provider", provider)],
              preferredDisplayUnit: .seconds, factory: factory).recordNanoseconds(Self.nanoseconds(duration))
        if let error {
            Counter(label: "pricewatch_provider_errors_total", dimensions: [("provider", provider), ("kind", Self.name(of: error.kind))],
                    factory: factory).increment()
        }
    }

    /// A quote from `provider` was accepted.
    public func quoteAccepted(provider: String) {
        Counter(label: "pricewatch_quotes_accepted_total", dimensions: [("provider", provider)], factory: factory).increment()
    }

    /// A quote from `provider` was rejected (`reason`: one of a fixed few).
    public func quoteRejected(provider: String, reason: String) {
        Counter(label: "pricewatch_quotes_rejected_total", dimensions: [("provider", provider), ("reason", reason)],
                factory: factory).increment()
    }

    /// `rule` fired an alert.
    public func alertFired(rule: String) {
        Counter(label: "pricewatch_alerts_fired_total", dimensions: [("rule", rule)], factory: factory).increment()
    }

    /// One delivery attempt to `sink` ended with `outcome` (`delivered`, `retry`, `failed`).
    public func delivered(sink: String, outcome: String, count: Int = 1) {
        Counter(label: "pricewatch_deliveries_total", dimensions: [("sink", sink), ("outcome", outcome)], factory: factory)
            .increment(by: Int64(count))
    }

    /// The Prometheus name of a provider error kind.
    static func name(of kind: ProviderError.Kind) -> String {
        switch kind {
        case .transient: "transient"
        case .rateLimited: "rate_limited"
        case .unknownSymbol: "unknown_symbol"
        case .malformedResponse: "malformed_response"
        case .permanent: "permanent"
        }
    }

    /// Why a quote was rejected, as a label: the two checks of ``QuoteAcceptance``.
    static func rejectionReason(of quote: Quote) -> String {
        quote.price > .zero ? "future_time" : "non_positive_price"
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
