import PriceWatchCore

/// The pure half of the Pushover sink: checks its settings once, then turns what to show into
/// the `POST /1/messages.json` request (https://pushover.net/api): a form with `token`,
/// `user`, `device`, `title`, `message`, `priority` (urgent rules 1, or 2 with `retry` and
/// `expire` when those are configured; others 0) and `timestamp`; `multipart/form-data` with
/// the chart as `attachment` when there is one.
public struct PushoverRequestBuilder: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// Pushover's limits, in characters.
    public static let messageLimit = 1024
    public static let titleLimit = 250

    let settings: PushoverSettings
    public let endpoint: WebhookEndpoint

    public init(_ settings: PushoverSettings) throws(ServiceConfigurationError) {
        do {
            endpoint = try WebhookEndpoint(settings.apiURL)
        } catch {
            throw ServiceConfigurationError("api_url: \(error)")
        }
        guard !settings.token.isEmpty else { throw ServiceConfigurationError("token: expected the application's API token, found an empty one") }
        guard !settings.user.isEmpty else { throw ServiceConfigurationError("user: expected a user or group key, found an empty one") }
        if let problem = PushoverSettings.problems(retry: settings.retry, expire: settings.expire).first {
            throw ServiceConfigurationError("\(problem.key): \(problem.message)")
        }
        if let problem = ServiceTimeout.problem(settings.timeout) { throw problem }
        self.settings = settings
    }

    public var description: String { "PushoverRequestBuilder(\(endpoint.display), \(settings))" }
    public var debugDescription: String { description }

    var secrets: [String] { [settings.token, settings.user] }

    /// `priority`: 2 (emergency) for urgent content when `retry` and `expire` are set, 1 for
    /// other urgent content, 0 for the rest.
    func priority(_ content: ServiceContent) -> Int {
        guard content.isUrgent else { return 0 }
        return settings.retry != nil && settings.expire != nil ? 2 : 1
    }

    /// The form's fields, in order.
    func fields(_ content: ServiceContent, time: Timestamp?) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = [("token", settings.token), ("user", settings.user)]
        if let device = settings.device { fields.append(("device", device)) }
        fields.append(("title", ServiceText.cut(content.title, to: Self.titleLimit)))
        let text = content.lines.isEmpty ? content.title : content.text(fitting: Self.messageLimit)
        fields.append(("message", text))
        let priority = priority(content)
        fields.append(("priority", String(priority)))
        if priority == 2, let retry = settings.retry, let expire = settings.expire {
            fields.append(("retry", String(retry.components.seconds)))
            fields.append(("expire", String(expire.components.seconds)))
        }
        if let time { fields.append(("timestamp", String(time.seconds))) }
        return fields
    }

    func request(_ content: ServiceContent, chart: NotificationAttachment? = nil) -> HTTPRequest {
        let fields = fields(content, time: content.alert?.time)
        let contentType: String, body: [UInt8]
        if let chart {
            var form = MultipartForm()
            for field in fields { form.field(field.name, field.value) }
            form.file("attachment", filename: chart.filename, contentType: chart.contentType, bytes: chart.bytes)
            (contentType, body) = (form.contentType, form.body)
        } else {
            (contentType, body) = ("application/x-www-form-urlencoded", ServiceText.form(fields))
        }
        return HTTPRequest(method: .post, url: ServiceText.join(settings.apiURL, "/1/messages.json"),
                           headers: [HTTPHeader("Content-Type", contentType)], body: body, timeout: settings.timeout,
                           maximumResponseBytes: 1 << 20, followsRedirects: false, redactions: secrets)
    }
}
