import PriceWatchCore

/// The `matrix` sink: each notification as one `m.room.message` event in a room, sent with
/// the client-server API through the core's ``HTTPTransport``; a retry reuses the transaction
/// id, so it never makes a second message. With `chart = true`, a single alert's message is
/// followed by its chart, uploaded to the media repository and sent as `m.image`. A room
/// written as an alias (`#prices:example.org`) is resolved through the room directory before
/// the first message, once for the sink's life.
///
/// Answers are classified by ``ServiceFailure``: 2xx delivered; 429 (`M_LIMIT_EXCEEDED`)
/// retryable after its `retry_after_ms` (or `Retry-After`); 5xx retryable; 400, 401
/// (`M_UNKNOWN_TOKEN`), 403 (`M_FORBIDDEN`: not in the room), 404 and others permanent. The
/// access token never appears in a message.
public struct MatrixSink: NotificationSink, CustomStringConvertible, CustomDebugStringConvertible {
    public let identity: String
    public let builder: MatrixRequestBuilder
    private let transport: any HTTPTransport
    private let charts: (any AlertChartProvider)?
    private let urgentRules: Set<String>
    private let failure: ServiceFailure
    private let room: MatrixRoomCache

    /// `charts` draws single alerts' charts when the settings ask for them (`chart = true`).
    public init(name: String, settings: MatrixSettings, transport: any HTTPTransport, charts: (any AlertChartProvider)? = nil,
                urgentRules: Set<String> = []) throws(ServiceConfigurationError) {
        identity = "matrix/\(name)"
        builder = try MatrixRequestBuilder(settings)
        self.transport = transport
        self.charts = settings.chart ? charts : nil
        self.urgentRules = urgentRules
        room = MatrixRoomCache(room: settings.room)
        failure = ServiceFailure(identity: identity, display: builder.endpoint.display, redactor: SecretRedactor(secrets: builder.secrets))
    }

    public var description: String { "\(identity) -> \(builder.endpoint.display)" }
    public var debugDescription: String { description }

    public func deliver(_ alert: Alert) async throws(SinkError) {
        try await send(ServiceContent(alert, urgentRules: urgentRules), id: alert.id)
    }

    public func deliver(_ notification: OutgoingNotification) async throws(SinkError) {
        try await send(ServiceContent(notification, urgentRules: urgentRules), id: notification.id)
    }

    /// A group as ONE event, one line per alert; its transaction id is the group's id
    /// (``AlertGroupID``), the same on every retry of the same group.
    public func deliver(_ alerts: [Alert]) async throws(SinkError) {
        if alerts.count == 1, let only = alerts.first { return try await deliver(only) }
        try await send(ServiceContent(alerts, urgentRules: urgentRules), id: AlertGroupID.make(alerts))
    }

    /// The message, then (a single alert with `chart = true`) the chart: uploaded, then sent as
    /// `m.image` with a transaction of its own. A failure at any step fails the delivery; its
    /// retry sends the message again under the same transaction, which the homeserver does not
    /// post twice.
    ///
    /// A message's pictures (a digest's charts) follow it the same way, each as its own
    /// `m.image` (transactions `pricewatch-ID-image-1`, `-2`, …).
    private func send(_ content: ServiceContent, id: String) async throws(SinkError) {
        var images = content.images.enumerated().map { (image: $0.element, transaction: "image-\($0.offset + 1)") }
        if let charts, let alert = content.alert, let chart = await charts.chart(for: alert) { images = [(chart, "chart")] }
        let roomID = try await resolvedRoom()
        _ = try await exchange(builder.request(content, id: id, room: roomID))
        for (image, suffix) in images {
            let uploaded = try await exchange(builder.upload(image))
            guard let uri = uploaded?.contentURI, uri.hasPrefix("mxc://") else {
                throw SinkError(retryable: true, "\(identity): \(builder.endpoint.display) answered the upload of \(image.filename) without an mxc:// content_uri")
            }
            _ = try await exchange(builder.image(image, uri: uri, transaction: MatrixRequestBuilder.transactionID(for: id) + "-" + suffix, room: roomID))
        }
    }

    /// The configured room id, or the id its alias resolves to (asked once; an unknown alias
    /// is the directory's 404, permanent).
    private func resolvedRoom() async throws(SinkError) -> String {
        if let known = room.value { return known }
        let answer = try await exchange(builder.resolveAlias())
        guard let id = answer?.roomID, MatrixSettings.problem(room: id) == nil, id.hasPrefix("!") else {
            throw SinkError(retryable: true, "\(identity): \(builder.endpoint.display) answered the room alias's lookup without a room_id")
        }
        room.store(id)
        return id
    }

    /// One request: the answer when it is a success, else the verdict thrown.
    private func exchange(_ request: HTTPRequest) async throws(SinkError) -> MatrixAnswer? {
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch {
            throw failure.verdict(for: error)
        }
        let answer = MatrixAnswer(response)
        if let error = failure.verdict(for: response, detail: answer?.detail, retryAfterSeconds: answer?.retryAfterSeconds) { throw error }
        return answer
    }
}
