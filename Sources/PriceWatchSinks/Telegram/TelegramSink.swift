import PriceWatchCore

/// The `telegram` sink: each notification as a Bot API `sendMessage` in HTML (the title in
/// bold, then the message), or, with `chart = true`, a single alert as `sendPhoto` of its
/// chart with the message as the caption (so is a digest with a chart, its first one);
/// through the core's ``HTTPTransport``.
///
/// The answer is classified by ``ServiceFailure``: 2xx delivered; 429 retryable after the
/// `parameters.retry_after` Telegram sends (so the outbox, not the sink, waits out the flood
/// limit); 408 and 5xx retryable; 400 (chat not found), 401 (bad token), 403 (bot blocked or
/// not in the chat), 404 and every other status permanent. The token sits in the request path:
/// no message shows the path, and every quoted answer passes through a redactor of the token.
public struct TelegramSink: NotificationSink, CustomStringConvertible, CustomDebugStringConvertible {
    public let identity: String
    public let builder: TelegramRequestBuilder
    private let transport: any HTTPTransport
    private let charts: (any AlertChartProvider)?
    private let urgentRules: Set<String>
    private let failure: ServiceFailure

    /// A sink named `name` (identity `telegram/NAME`); throws when the settings cannot work.
    /// `charts` draws single alerts' charts when the settings ask for them.
    public init(name: String, settings: TelegramSettings, transport: any HTTPTransport,
                charts: (any AlertChartProvider)? = nil, urgentRules: Set<String> = []) throws(ServiceConfigurationError) {
        identity = "telegram/\(name)"
        builder = try TelegramRequestBuilder(settings)
        self.transport = transport
        self.charts = settings.chart ? charts : nil
        self.urgentRules = urgentRules
        failure = ServiceFailure(identity: identity, display: builder.endpoint.display, redactor: SecretRedactor(secrets: builder.secrets))
    }

    /// `telegram/prices -> https://api.telegram.org`: no token.
    public var description: String { "\(identity) -> \(builder.endpoint.display)" }
    public var debugDescription: String { description }

    public func deliver(_ alert: Alert) async throws(SinkError) {
        try await deliver(ServiceContent(alert, urgentRules: urgentRules))
    }

    public func deliver(_ notification: OutgoingNotification) async throws(SinkError) {
        try await deliver(ServiceContent(notification, urgentRules: urgentRules))
    }

    /// A group as ONE message, one line per alert; lines past the limit are left out and the
    /// message says how many.
    public func deliver(_ alerts: [Alert]) async throws(SinkError) {
        if alerts.count == 1, let only = alerts.first { return try await deliver(only) }
        try await deliver(ServiceContent(alerts, urgentRules: urgentRules))
    }

    /// A single alert with its chart (`chart = true`), or a message with a picture (a digest's
    /// first chart, Telegram taking one photo a message), as `sendPhoto` with the text as the
    /// caption; anything else as `sendMessage`.
    private func deliver(_ content: ServiceContent) async throws(SinkError) {
        if let charts, let alert = content.alert, let chart = await charts.chart(for: alert) {
            try await send(builder.photo(content, chart: chart))
        } else if let image = content.images.first {
            try await send(builder.photo(content, chart: image))
        } else {
            try await send(builder.message(content))
        }
    }

    private func send(_ request: HTTPRequest) async throws(SinkError) {
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch {
            throw failure.verdict(for: error)
        }
        guard !(200...299).contains(response.status) else { return }
        let answer = TelegramAnswer(response)
        if let error = failure.verdict(for: response, detail: answer?.detail, retryAfterSeconds: answer?.parameters?.retryAfter) {
            throw error
        }
    }
}
