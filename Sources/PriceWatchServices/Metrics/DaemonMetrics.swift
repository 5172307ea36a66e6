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

    /// One poll of `provider` ended: how long each of its phases took (``PollPhase``) and the
    /// whole poll, from the tick's plan to the end of its health check (the phases' sum).
    public func pollTimed(provider: String, phases: [(PollPhase, Duration)], total: Duration) {
        for (phase, duration) in phases {
            Timer(label: "pricewatch_poll_phase_duration_seconds", dimensions: [("provider", provider), ("phase", phase.rawValue)],
                  preferredDisplayUnit: .seconds, factory: factory).recordNanoseconds(Self.nanoseconds(duration))
        }
        Timer(label: "pricewatch_poll_duration_seconds", dimensions: [("provider", provider)],
              preferredDisplayUnit: .seconds, factory: factory).recordNanoseconds(Self.nanoseconds(total))
    }

    /// `count` quotes from `provider` were accepted.
    public func quoteAccepted(provider: String, count: Int = 1) {
        Counter(label: "pricewatch_quotes_accepted_total", dimensions: [("provider", provider)], factory: factory)
            .increment(by: Int64(count))
    }

    /// A quote from `provider` was rejected (`reason`: one of a fixed few).
    /// `count` quotes of `provider`'s symbols came from `source` (the provider or a fallback).
    public func quotesServed(provider: String, source: String, count: Int) {
        Counter(label: "pricewatch_quotes_served_total", dimensions: [("provider", provider), ("source", source)], factory: factory)
            .increment(by: Int64(count))
    }

    /// `count` symbols of `provider` moved to `source` (a fallback, or the provider again).
    public func quoteSourceChanged(provider: String, source: String, count: Int) {
        Counter(label: "pricewatch_quote_source_changes_total", dimensions: [("provider", provider), ("source", source)],
                factory: factory).increment(by: Int64(count))
    }

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

    /// Creates every counter of the configuration's providers and sinks at 0, with each label
    /// value known up front, so a `rate()` or `increase()` alert sees the series from the first
    /// scrape instead of from the first error. Done at start and after each reload (new
    /// providers and sinks); counters that exist keep their values. Alerts per rule are left to
    /// their first firing: a series per rule of a 100,000-rule configuration at every scrape
    /// would cost more than it tells.
    public func declare(_ configuration: Configuration) {
        for provider in configuration.providers.map(\.name) {
            for outcome in ["success", "failure"] {
                _ = Counter(label: "pricewatch_polls_total", dimensions: [("provider", provider), ("outcome", outcome)], factory: factory)
            }
            for kind in Self.providerErrorKinds {
                _ = Counter(label: "pricewatch_provider_errors_total", dimensions: [("provider", provider), ("kind", Self.name(of: kind))],
                            factory: factory)
            }
            _ = Counter(label: "pricewatch_quotes_accepted_total", dimensions: [("provider", provider)], factory: factory)
            let settings = configuration.providers.first { $0.name == provider }
            for source in [provider] + (settings?.fallback ?? []) {
                _ = Counter(label: "pricewatch_quotes_served_total", dimensions: [("provider", provider), ("source", source)], factory: factory)
                _ = Counter(label: "pricewatch_quote_source_changes_total", dimensions: [("provider", provider), ("source", source)],
                            factory: factory)
            }
            for reason in Self.rejectionReasons {
                _ = Counter(label: "pricewatch_quotes_rejected_total", dimensions: [("provider", provider), ("reason", reason)],
                            factory: factory)
            }
        }
        for sink in configuration.sinks.map(\.name) {
            for outcome in Self.deliveryOutcomes {
                _ = Counter(label: "pricewatch_deliveries_total", dimensions: [("sink", sink), ("outcome", outcome)], factory: factory)
            }
        }
    }

    /// The configuration loaded at start, at `time`: the reload counters at 0 and the last
    /// load successful.
    public func started(at time: Timestamp) {
        for outcome in ["success", "failure"] {
            _ = Counter(label: "pricewatch_config_reloads_total", dimensions: [("outcome", outcome)], factory: factory)
        }
        Gauge(label: "pricewatch_config_last_reload_successful", factory: factory).record(1)
        Gauge(label: "pricewatch_config_last_reload_success_timestamp_seconds", factory: factory).record(Self.seconds(time))
    }

    /// A reload ended at `time`: `configuration` runs now, or (nil) the reload was refused and
    /// the running configuration stays.
    public func reloaded(_ configuration: Configuration?, at time: Timestamp) {
        let outcome = configuration == nil ? "failure" : "success"
        Counter(label: "pricewatch_config_reloads_total", dimensions: [("outcome", outcome)], factory: factory).increment()
        Gauge(label: "pricewatch_config_last_reload_successful", factory: factory).record(configuration == nil ? 0 : 1)
        if let configuration {
            Gauge(label: "pricewatch_config_last_reload_success_timestamp_seconds", factory: factory).record(Self.seconds(time))
            declare(configuration)
        }
    }

    static let providerErrorKinds: [ProviderError.Kind] = [.transient, .rateLimited, .unknownSymbol, .malformedResponse, .permanent]
    /// The values of `reason` of rejected quotes (``rejectionReason(of:)``).
    static let rejectionReasons = ["non_positive_price", "future_time"]
    /// The values of `outcome` of deliveries (``MeasuredNotificationSink``).
    static let deliveryOutcomes = ["delivered", "retry", "failed"]

    private static func seconds(_ time: Timestamp) -> Double { Double(time.milliseconds) / 1000 }

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
