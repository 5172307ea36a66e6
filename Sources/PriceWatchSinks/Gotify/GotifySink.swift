import PriceWatchCore

/// The `gotify` sink: each notification as one Gotify message (title, markdown text,
/// priority from the rule's urgency) through the core's ``HTTPTransport``.
///
/// Answers are classified by ``ServiceFailure``: 2xx delivered; 408, 429 (a proxy's limit)
/// and 5xx retryable; 400, 401, 403 and other statuses permanent. The token never appears in
/// a message.
public struct GotifySink: NotificationSink, CustomStringConvertible, CustomDebugStringConvertible {
    public let identity: String
    public let builder: GotifyRequestBuilder
    private let transport: any HTTPTransport
    private let urgentRules: Set<String>
    private let failure: ServiceFailure

    public init(name: String, settings: GotifySettings, transport: any HTTPTransport, urgentRules: Set<String> = []) throws(ServiceConfigurationError) {
        identity = "gotify/\(name)"
        builder = try GotifyRequestBuilder(settings)
        self.transport = transport
        self.urgentRules = urgentRules
        failure = ServiceFailure(identity: identity, display: builder.endpoint.display, redactor: SecretRedactor(secrets: builder.secrets))
    }

    public var description: String { "\(identity) -> \(builder.endpoint.display)" }
    public var debugDescription: String { description }

    public func deliver(_ alert: Alert) async throws(SinkError) {
        try await send(ServiceContent(alert, urgentRules: urgentRules))
    }

    public func deliver(_ notification: OutgoingNotification) async throws(SinkError) {
        try await send(ServiceContent(notification, urgentRules: urgentRules))
    }

    /// A group as ONE message, one line per alert.
    public func deliver(_ alerts: [Alert]) async throws(SinkError) {
        if alerts.count == 1, let only = alerts.first { return try await deliver(only) }
        try await send(ServiceContent(alerts, urgentRules: urgentRules))
    }

    private func send(_ content: ServiceContent) async throws(SinkError) {
        let response: HTTPResponse
        do {
            response = try await transport.send(builder.request(content))
        } catch {
            throw failure.verdict(for: error)
        }
        guard !(200...299).contains(response.status) else { return }
        if let error = failure.verdict(for: response, detail: GotifyAnswer(response)?.detail) { throw error }
    }
}
