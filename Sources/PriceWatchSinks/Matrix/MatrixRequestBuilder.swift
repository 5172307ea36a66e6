import PriceWatchCore

/// The pure half of the Matrix sink: `PUT /_matrix/client/v3/rooms/{roomId}/send/m.room.message/{txnId}`
/// (the client-server API) with `Authorization: Bearer` and an `m.room.message` event:
/// `msgtype` `m.notice` (a bot's message, which clients do not alert on) or `m.text` for
/// urgent rules, `body` in plain text and `format` `org.matrix.custom.html` with
/// `formatted_body`.
///
/// The transaction id is `pricewatch-` and the notification's id (a group's, for a group):
/// a retry of the same notification is the same transaction, which the homeserver answers
/// with the event it already made instead of a second message.
public struct MatrixRequestBuilder: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The most characters of the text (an event is at most 65,536 bytes, HTML included).
    public static let textLimit = 4000

    let settings: MatrixSettings
    public let endpoint: WebhookEndpoint

    public init(_ settings: MatrixSettings) throws(ServiceConfigurationError) {
        do {
            endpoint = try WebhookEndpoint(settings.homeserver)
        } catch {
            throw ServiceConfigurationError("homeserver: \(error)")
        }
        if let problem = MatrixSettings.problem(room: settings.room) { throw ServiceConfigurationError("room: \(problem)") }
        guard !settings.accessToken.isEmpty, settings.accessToken.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
            throw ServiceConfigurationError("access_token: expected an access token of printable characters, found "
                                            + (settings.accessToken.isEmpty ? "an empty one" : "one with other characters"))
        }
        if let problem = ServiceTimeout.problem(settings.timeout) { throw problem }
        self.settings = settings
    }

    public var description: String { "MatrixRequestBuilder(\(endpoint.display), room: \(settings.room))" }
    public var debugDescription: String { description }

    var secrets: [String] { [settings.accessToken] }

    /// The transaction id of the notification `id`.
    public static func transactionID(for id: String) -> String { "pricewatch-" + id }

    /// The path of the event `transaction` in `room` (a room id; both percent-encoded).
    func path(transaction: String, room: String) -> String {
        "/_matrix/client/v3/rooms/\(ServiceText.percentEncoded(room))/send/m.room.message/\(ServiceText.percentEncoded(transaction))"
    }

    /// `GET /_matrix/client/v3/directory/room/{alias}`: the room id of the configured alias.
    func resolveAlias() -> HTTPRequest {
        HTTPRequest(method: .get,
                    url: ServiceText.join(settings.homeserver, "/_matrix/client/v3/directory/room/\(ServiceText.percentEncoded(settings.room))"),
                    headers: [HTTPHeader("Authorization", "Bearer \(settings.accessToken)")], timeout: settings.timeout,
                    maximumResponseBytes: 1 << 16, followsRedirects: false, redactions: secrets)
    }

    /// `POST /_matrix/media/v3/upload?filename=…` of `chart`: the media repository answers its
    /// `mxc://` URI.
    func upload(_ chart: NotificationAttachment) -> HTTPRequest {
        HTTPRequest(method: .post,
                    url: ServiceText.join(settings.homeserver, "/_matrix/media/v3/upload?filename=\(ServiceText.percentEncoded(chart.filename))"),
                    headers: [HTTPHeader("Content-Type", chart.contentType), HTTPHeader("Authorization", "Bearer \(settings.accessToken)")],
                    body: chart.bytes, timeout: settings.timeout, maximumResponseBytes: 1 << 16, followsRedirects: false, redactions: secrets)
    }

    /// The `m.image` event of an uploaded picture (`transaction`: `pricewatch-ID-chart` for an
    /// alert's chart, `pricewatch-ID-image-N` for a message's pictures).
    func image(_ chart: NotificationAttachment, uri: String, transaction: String, room: String) -> HTTPRequest {
        var info = JSONWriter()
        info.string("mimetype", chart.contentType)
        info.integer("size", chart.bytes.count)
        var json = JSONWriter()
        json.string("msgtype", "m.image")
        json.string("body", chart.filename)
        json.string("url", uri)
        json.raw("info", info.result)
        return event(json.result, transaction: transaction, room: room)
    }

    /// The message event of `content` in `room` (a room id), transaction `pricewatch-ID`.
    func request(_ content: ServiceContent, id: String, room: String) -> HTTPRequest {
        let text = content.lines.isEmpty ? "" : content.text(fitting: Self.textLimit)
        let plain = text.isEmpty ? content.title : content.title + "\n" + text
        var html = "<strong>\(ServiceText.escapedHTML(content.title))</strong>"
        if !text.isEmpty { html += "<br>" + text.split(separator: "\n", omittingEmptySubsequences: false).map { ServiceText.escapedHTML(String($0)) }.joined(separator: "<br>") }
        var json = JSONWriter()
        json.string("msgtype", content.isUrgent ? "m.text" : "m.notice")
        json.string("body", plain)
        json.string("format", "org.matrix.custom.html")
        json.string("formatted_body", html)
        return event(json.result, transaction: Self.transactionID(for: id), room: room)
    }

    private func event(_ json: String, transaction: String, room: String) -> HTTPRequest {
        HTTPRequest(method: .put, url: ServiceText.join(settings.homeserver, path(transaction: transaction, room: room)),
                    headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("Authorization", "Bearer \(settings.accessToken)")],
                    body: Array(json.utf8), timeout: settings.timeout, maximumResponseBytes: 1 << 20,
                    followsRedirects: false, redactions: secrets)
    }
}
