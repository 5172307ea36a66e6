import PriceWatchCore

/// The `webhook` sink: one HTTP POST per alert through the core's ``HTTPTransport``, in
/// pricewatch's JSON payload or a chat service's format, with custom headers, a timeout, and
/// Standard Webhooks signatures when a `secret` is configured.
///
/// The request is built by ``WebhookRequestBuilder`` (its timestamp from the injected wall
/// clock); the answer is classified by ``WebhookFailure``: 2xx delivered; 408, 429, 5xx and
/// no answer retryable (with `Retry-After`); other statuses permanent. Error messages name
/// the sink and the receiver's scheme and host only: never the secret, a header value, or
/// the URL's path, query or user info.
public struct WebhookSink: NotificationSink, CustomStringConvertible, CustomDebugStringConvertible {
    /// What `[sinks.NAME]` configures. Its description shows no URL, header value or secret.
    public struct Settings: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
        public var url: String
        public var format: WebhookFormat
        /// Sent with every request, after the format's headers (replacing those of the same name).
        public var headers: [HTTPHeader]
        public var timeout: Duration
        /// A `whsec_…` Standard Webhooks secret; requests are signed when present.
        public var secret: String?

        public init(url: String, format: WebhookFormat = .json, headers: [HTTPHeader] = [],
                    timeout: Duration = Self.defaultTimeout, secret: String? = nil) {
            self.url = url
            self.format = format
            self.headers = headers
            self.timeout = timeout
            self.secret = secret
        }

        /// `timeout` when not configured: the schema's default (``WebhookSink/schema``).
        public static var defaultTimeout: Duration {
            WebhookSink.schema.field("timeout")?.defaultValue?.durationValue ?? .zero
        }

        public var description: String {
            "WebhookSink.Settings(format: \(format.rawValue), headers: \(headers.map(\.name)), timeout: \(timeout), "
                + "secret: \(secret == nil ? "none" : "<secret>"))"
        }

        public var debugDescription: String { description }
    }

    public let identity: String
    public let builder: WebhookRequestBuilder
    private let transport: any HTTPTransport
    private let wallClock: @Sendable () -> Timestamp

    /// A sink named `name` (identity `webhook/NAME`); throws when the settings cannot work.
    public init(name: String, settings: Settings, transport: any HTTPTransport,
                wallClock: @escaping @Sendable () -> Timestamp) throws(WebhookConfigurationError) {
        identity = "webhook/\(name)"
        builder = try WebhookRequestBuilder(settings)
        self.transport = transport
        self.wallClock = wallClock
    }

    /// `webhook/ops -> https://hooks.example.com (json, signed)`: no path, query or secret.
    public var description: String {
        "\(identity) -> \(builder.endpoint.display) (\(builder.format.rawValue)\(builder.isSigned ? ", signed" : ""))"
    }

    public var debugDescription: String { description }

    public func deliver(_ alert: Alert) async throws(SinkError) {
        try await send(builder.request(for: alert, at: wallClock()))
    }

    /// One request for a notification of any kind: an alert-shaped one exactly as an alert,
    /// another kind in the format's notification form (``WebhookFormat/content(for:)-(OutgoingNotification)``);
    /// `webhook-id` is the notification's id.
    public func deliver(_ notification: OutgoingNotification) async throws(SinkError) {
        try await send(builder.request(for: notification, at: wallClock()))
    }

    /// Delivers a group of alerts (`group_wait`, oldest first) as ONE request: the JSON
    /// format's `alerts.fired` payload, or the chat formats' messages one per line; its
    /// `webhook-id` is ``WebhookRequestBuilder/groupID(for:)``.
    ///
    /// A chat service cuts a message over its limit (Discord 2000 characters), which would
    /// lose the alerts past the cut while the group counts as delivered; so a group whose
    /// lines do not fit goes out as several requests, in order, each within the limit. Any
    /// failure fails the whole group, which is retried whole (at least once, same ids).
    public func deliver(_ alerts: [Alert]) async throws(SinkError) {
        for part in builder.format.parts(of: alerts) {
            guard let first = part.first else { continue }
            if part.count == 1 {
                try await deliver(first)
            } else {
                try await send(builder.request(for: part, at: wallClock()))
            }
        }
    }

    private func send(_ request: HTTPRequest) async throws(SinkError) {
        let failure = WebhookFailure(identity: identity, endpoint: builder.endpoint, redactor: builder.redactor)
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch {
            throw failure.verdict(for: error)
        }
        if let error = failure.verdict(for: response) { throw error }
    }
}
