/// A destination for alerts: standard output, a webhook, an email address.
///
/// Contract:
/// - ``deliver(_:)`` delivers one alert once, or throws a ``SinkError`` saying whether a retry
///   can help (and when, if the receiver said). It never retries, queues or sleeps by itself:
///   the dispatcher does that, once, for every sink, from the durable outbox.
/// - The same alert may be delivered more than once (at-least-once delivery); it always
///   carries the same `id` so receivers can deduplicate.
/// - Errors and log lines never contain a secret.
/// - Sinks honour task cancellation promptly.
public protocol NotificationSink: Sendable {
    /// `kind/name`, e.g. `webhook/ops`: the identity used in every log line and table.
    var identity: String { get }
    /// Delivers one alert.
    func deliver(_ alert: Alert) async throws(SinkError)
}

/// Why a sink could not deliver an alert.
public struct SinkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Whether a later attempt can succeed (connection errors, timeouts, 408, 429, 5xx).
    public var isRetryable: Bool
    public var message: String
    /// How long the receiver asked us to wait, in seconds (`Retry-After`).
    public var retryAfterSeconds: Int64?

    public init(retryable: Bool, _ message: String, retryAfterSeconds: Int64? = nil) {
        self.isRetryable = retryable
        self.message = message
        self.retryAfterSeconds = retryAfterSeconds
    }

    public var description: String { message }
}
