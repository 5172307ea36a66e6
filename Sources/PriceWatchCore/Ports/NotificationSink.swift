/// A destination for notifications (alerts, digests, reports, test messages): standard
/// output, a webhook, an email address.
///
/// Contract:
/// - ``deliver(_:)`` delivers one alert once, or throws a ``SinkError`` saying whether a retry
///   can help (and when, if the receiver said). It never retries, queues or sleeps by itself:
///   the dispatcher does that, once, for every sink, from the durable outbox.
/// - The same alert may be delivered more than once (at-least-once delivery); it always
///   carries the same `id` so receivers can deduplicate.
/// - Errors and log lines never contain a secret.
/// - Sinks honour task cancellation promptly.
///
/// Groups (`group_wait`): ``deliver(_:)-([Alert])`` delivers several alerts as ONE message
/// (one email listing them, one webhook request carrying them). A group succeeds or fails as
/// a whole: the dispatcher records the same outcome for every alert of it and retries the
/// whole group, so receivers may see an alert of a failed group again (with its same id).
/// Every alert in a group keeps its own `id`; the group's own id (a webhook's `webhook-id`,
/// an email's `Message-ID`) is derived from the id of its first alert, which is the oldest
/// one: a group retried after a failure has the same first alert, hence the same id.
///
/// Other kinds (``deliver(_:)-(OutgoingNotification)``) have the same contract: delivered once per
/// call or a ``SinkError``, the notification's stable `id` on every attempt (a webhook signs
/// it). They are never grouped.
public protocol NotificationSink: Sendable {
    /// `kind/name`, e.g. `webhook/ops`: the identity used in every log line and table.
    var identity: String { get }
    /// Delivers one alert.
    func deliver(_ alert: Alert) async throws(SinkError)
    /// Delivers a group of alerts, oldest first, as one message. The dispatcher calls it only
    /// with two or more alerts; a group of one goes through ``deliver(_:)-(Alert)``.
    ///
    /// The default, for sinks whose medium has no group form (standard output), delivers the
    /// alerts one after another and stops at the first failure, which fails the whole group:
    /// the alerts before it are delivered again with the group (at least once, same ids).
    func deliver(_ alerts: [Alert]) async throws(SinkError)
    /// Delivers one notification of any kind. An alert-shaped one (kind `alert`, or the test
    /// alert of `pricewatch notify-test`) is rendered exactly as ``deliver(_:)-(Alert)``
    /// renders an alert; a message (a digest, a report, …) as the sink's medium allows.
    ///
    /// The default delivers alert-shaped notifications through ``deliver(_:)-(Alert)`` and
    /// refuses the others permanently; every sink of pricewatch implements it for all kinds.
    func deliver(_ notification: OutgoingNotification) async throws(SinkError)
}

extension NotificationSink {
    /// Alert-shaped notifications through ``deliver(_:)-(Alert)``; other kinds are refused.
    public func deliver(_ notification: OutgoingNotification) async throws(SinkError) {
        switch notification.content {
        case .alert(let alert):
            try await deliver(alert)
        case .message:
            throw SinkError(retryable: false, "\(identity): cannot carry '\(notification.kind)' notifications")
        }
    }

    /// Delivers the alerts one by one; the first failure fails the group.
    public func deliver(_ alerts: [Alert]) async throws(SinkError) {
        for alert in alerts { try await deliver(alert) }
    }
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
