import PriceWatchCore

/// A consumer of the quote stream that counts polls per provider and outcome and records the
/// time of each provider's last successful poll. It accepts nothing (its receipt is empty).
public struct PollMetricsConsumer: QuoteConsumer {
    let metrics: DaemonMetrics

    public init(metrics: DaemonMetrics) {
        self.metrics = metrics
    }

    public func receive(_ poll: PolledQuotes) async -> QuoteReceipt {
        metrics.polled(provider: poll.provider, failure: poll.failure, at: poll.time)
        return .none
    }
}
