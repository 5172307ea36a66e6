import PriceWatchCore

/// The `pushover` sink: each notification as one Pushover message (title, text, priority
/// from the rule's urgency), with the chart as the attachment for single alerts when
/// `chart = true`; through the core's ``HTTPTransport``.
///
/// Answers are classified by ``ServiceFailure``: 2xx delivered; 429 (over the application's
/// monthly quota) and 5xx retryable; 4xx permanent (Pushover's `errors` quoted: an invalid
/// token, user or device). Neither the token nor the user key appears in any message.
public struct PushoverSink: NotificationSink, CustomStringConvertible, CustomDebugStringConvertible {
    public let identity: String
    public let builder: PushoverRequestBuilder
    private let transport: any HTTPTransport
    private let charts: (any AlertChartProvider)?
    private let urgentRules: Set<String>
    private let failure: ServiceFailure

    public init(name: String, settings: PushoverSettings, transport: any HTTPTransport,
                charts: (any AlertChartProvider)? = nil, urgentRules: Set<String> = []) throws(ServiceConfigurationError) {
        identity = "pushover/\(name)"
        builder = try PushoverRequestBuilder(settings)
        self.transport = transport
        self.charts = settings.chart ? charts : nil
        self.urgentRules = urgentRules
        failure = ServiceFailure(identity: identity, display: builder.endpoint.display, redactor: SecretRedactor(secrets: builder.secrets))
    }

    public var description: String { "\(identity) -> \(builder.endpoint.display)" }
    public var debugDescription: String { description }

    public func deliver(_ alert: Alert) async throws(SinkError) {
        try await deliver(ServiceContent(alert, urgentRules: urgentRules))
    }

    public func deliver(_ notification: OutgoingNotification) async throws(SinkError) {
        try await deliver(ServiceContent(notification, urgentRules: urgentRules))
    }

    /// A group as ONE message, one line per alert, cut to Pushover's limit with a count of
    /// the alerts left out.
    public func deliver(_ alerts: [Alert]) async throws(SinkError) {
        if alerts.count == 1, let only = alerts.first { return try await deliver(only) }
        try await deliver(ServiceContent(alerts, urgentRules: urgentRules))
    }

    private func deliver(_ content: ServiceContent) async throws(SinkError) {
        // An alert's chart (`chart = true`), or a message's first picture: Pushover takes one.
        var chart = content.images.first
        if let charts, let alert = content.alert { chart = await charts.chart(for: alert) }
        let response: HTTPResponse
        do {
            response = try await transport.send(builder.request(content, chart: chart))
        } catch {
            throw failure.verdict(for: error)
        }
        guard !(200...299).contains(response.status) else { return }
        if let error = failure.verdict(for: response, detail: PushoverAnswer(response)?.detail) { throw error }
    }
}
