import PriceWatchCore

/// What one webhook format sends for one alert: the body and the headers that describe it
/// (`Content-Type`, ntfy's `Title`). The sink adds the custom and signature headers.
public struct WebhookContent: Sendable, Hashable {
    public var headers: [HTTPHeader]
    public var body: [UInt8]
    /// POST, or PUT where the service takes a file as the body (ntfy's attachments).
    public var method: HTTPRequest.Method = .post
    /// Query parameters added to the sink's URL (already percent-encoded), in order.
    public var query: [(name: String, value: String)] = []

    public init(headers: [HTTPHeader], body: [UInt8], method: HTTPRequest.Method = .post,
                query: [(name: String, value: String)] = []) {
        self.headers = headers
        self.body = body
        self.method = method
        self.query = query
    }

    public static func == (lhs: WebhookContent, rhs: WebhookContent) -> Bool {
        lhs.headers == rhs.headers && lhs.body == rhs.body && lhs.method == rhs.method
            && lhs.query.map(\.name) == rhs.query.map(\.name) && lhs.query.map(\.value) == rhs.query.map(\.value)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(headers)
        hasher.combine(body)
        hasher.combine(method)
        for (name, value) in query {
            hasher.combine(name)
            hasher.combine(value)
        }
    }

    /// A JSON body with `Content-Type: application/json`.
    static func json(_ text: String) -> WebhookContent {
        WebhookContent(headers: [HTTPHeader("Content-Type", "application/json")], body: Array(text.utf8))
    }
}
