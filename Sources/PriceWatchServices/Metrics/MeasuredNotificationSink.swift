import PriceWatchCore

/// A sink that records each delivery's outcome (`delivered`, `retry`, `failed`) in
/// ``DaemonMetrics`` and otherwise is the sink it wraps.
public struct MeasuredNotificationSink: NotificationSink {
    public let wrapped: any NotificationSink
    let sinkName: String
    let metrics: DaemonMetrics

    /// - Parameter name: the sink's name in the configuration (the metric's `sink` label).
    public init(_ wrapped: any NotificationSink, name: String, metrics: DaemonMetrics) {
        self.wrapped = wrapped
        self.sinkName = name
        self.metrics = metrics
    }

    public var identity: String { wrapped.identity }

    public func deliver(_ alert: Alert) async throws(SinkError) {
        try await measure(count: 1) { () async throws(SinkError) in try await wrapped.deliver(alert) }
    }

    public func deliver(_ alerts: [Alert]) async throws(SinkError) {
        try await measure(count: alerts.count) { () async throws(SinkError) in try await wrapped.deliver(alerts) }
    }

    public func deliver(_ notification: OutgoingNotification) async throws(SinkError) {
        try await measure(count: 1) { () async throws(SinkError) in try await wrapped.deliver(notification) }
    }

    private func measure(count: Int, _ body: () async throws(SinkError) -> Void) async throws(SinkError) {
        do {
            try await body()
            metrics.delivered(sink: sinkName, outcome: "delivered", count: count)
        } catch {
            metrics.delivered(sink: sinkName, outcome: error.isRetryable ? "retry" : "failed", count: count)
            throw error
        }
    }
}
