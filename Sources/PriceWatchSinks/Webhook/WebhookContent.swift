import PriceWatchCore

/// What one webhook format sends for one alert: the body and the headers that describe it
/// (`Content-Type`, ntfy's `Title`). The sink adds the custom and signature headers.
public struct WebhookContent: Sendable, Hashable {
    public var headers: [HTTPHeader]
    public var body: [UInt8]

    public init(headers: [HTTPHeader], body: [UInt8]) {
        self.headers = headers
        self.body = body
    }

    /// A JSON body with `Content-Type: application/json`.
    static func json(_ text: String) -> WebhookContent {
        WebhookContent(headers: [HTTPHeader("Content-Type", "application/json")], body: Array(text.utf8))
    }
}
