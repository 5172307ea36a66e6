import CoreMetrics
import Prometheus

/// The daemon's metrics in the Prometheus text format: a registry of its own (not the
/// process-wide one, so several daemons in one test process never share counters) and the
/// swift-metrics factory the services record through.
///
/// Every metric carries its `# HELP` line from ``help`` (`promtool check metrics` requires it);
/// a label with no entry gets a generic one.
public final class MetricsExporter: Sendable {
    public let registry = PrometheusCollectorRegistry()

    /// Help text per metric name.
    public static let help: [String: String] = [
        "pricewatch_polls_total": "Polls finished, by provider and outcome (success: the provider answered the poll).",
        "pricewatch_provider_request_duration_seconds": "Duration of requests to each provider, in seconds.",
        "pricewatch_poll_phase_duration_seconds": "Duration of each phase of a poll (plan, fetch, consume, health), by provider, in seconds.",
        "pricewatch_poll_duration_seconds": "Duration of whole polls (the sum of their phases), by provider, in seconds.",
        "pricewatch_provider_errors_total": "Failed provider requests, by provider and error kind.",
        "pricewatch_quotes_accepted_total": "Quotes accepted for rule evaluation, by provider.",
        "pricewatch_quotes_rejected_total": "Quotes rejected, by provider and reason.",
        "pricewatch_alerts_fired_total": "Alerts fired, by rule.",
        "pricewatch_deliveries_total": "Delivery attempts, by sink and outcome (delivered, retry, failed).",
        "pricewatch_last_successful_poll_timestamp_seconds": "Unix time of each provider's last successful poll.",
        "pricewatch_outbox_pending_deliveries": "Deliveries waiting in the outbox.",
        "pricewatch_outbox_oldest_pending_age_seconds": "Age of the oldest pending delivery, in seconds (0: none).",
        "pricewatch_rules_watched": "Rules in the running configuration.",
        "pricewatch_symbols_watched": "Distinct symbols the rules watch.",
        "pricewatch_build_info": "Always 1; the version of pricewatch as a label.",
        "pricewatch_outbox_dead_deliveries": "Deliveries given up on (dead letters) still in the outbox.",
        "pricewatch_config_reloads_total": "Configuration reloads, by outcome (success: the new configuration runs).",
        "pricewatch_config_last_reload_successful": "1 when the last configuration load (start or reload) succeeded, else 0.",
        "pricewatch_config_last_reload_success_timestamp_seconds": "Unix time of the last successful configuration load.",
    ]

    public init() {}

    /// The factory the services record through (``MetricsFactory`` of swift-metrics).
    public var factory: any MetricsFactory { HelpfulFactory(registry: registry) }

    /// Sets a gauge that is computed when scraped (outbox, rules, build info).
    public func set(_ name: String, labels: [(String, String)] = [], to value: Double) {
        registry.makeGauge(descriptor: Self.descriptor(name), labels: labels).set(value)
    }

    /// The exposition text: the registry's metrics, then the process's (``ProcessMetrics``).
    public func render() -> [UInt8] { registry.emitToBuffer() + Array(ProcessMetrics.current().exposition.utf8) }

    static func descriptor(_ name: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help[name] ?? "pricewatch metric \(name).")
    }

    /// swift-metrics to the registry, with help text.
    struct HelpfulFactory: MetricsFactory {
        let registry: PrometheusCollectorRegistry

        static let durationBuckets: [Duration] = [
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10), .seconds(30),
        ]

        func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
            registry.makeCounter(descriptor: MetricsExporter.descriptor(label), labels: dimensions)
        }
        func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
            registry.makeCounter(descriptor: MetricsExporter.descriptor(label), labels: dimensions)
        }
        func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
            if aggregate {
                return registry.makeValueHistogram(descriptor: MetricsExporter.descriptor(label), labels: dimensions,
                                                   buckets: [1, 5, 10, 50, 100, 500, 1000])
            }
            return registry.makeGauge(descriptor: MetricsExporter.descriptor(label), labels: dimensions)
        }
        func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
            registry.makeGauge(descriptor: MetricsExporter.descriptor(label), labels: dimensions)
        }
        func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
            registry.makeDurationHistogram(descriptor: MetricsExporter.descriptor(label), labels: dimensions,
                                           buckets: Self.durationBuckets)
        }
        func destroyCounter(_ handler: any CounterHandler) {}
        func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {}
        func destroyRecorder(_ handler: any RecorderHandler) {}
        func destroyMeter(_ handler: any MeterHandler) {}
        func destroyTimer(_ handler: any TimerHandler) {}
    }
}
