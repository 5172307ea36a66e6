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
public struct WebhookSink: NotificationSink {
    /// What `[sinks.NAME]` configures.
    public struct Settings: Sendable {
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

        /// `timeout` when not configured.
        public static let defaultTimeout: Duration = .seconds(10)
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

    public func deliver(_ alert: Alert) async throws(SinkError) {
        let failure = WebhookFailure(identity: identity, endpoint: builder.endpoint, redactor: builder.redactor)
        let response: HTTPResponse
        do {
            response = try await transport.send(builder.request(for: alert, at: wallClock()))
        } catch {
            throw failure.verdict(for: error)
        }
        if let error = failure.verdict(for: response) { throw error }
    }
}
