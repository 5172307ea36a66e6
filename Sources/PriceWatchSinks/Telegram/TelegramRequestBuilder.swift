import PriceWatchCore

/// The pure half of the Telegram sink: checks its settings once, then turns what to show into
/// the Bot API request (`sendMessage` with `parse_mode=HTML`, or `sendPhoto` with a chart).
///
/// The text is the title in bold, a line break, then the message, HTML-escaped; it is cut
/// before escaping so that what Telegram counts (the text after its entities are parsed, at
/// most 4,096 characters; 1,024 for a photo's caption) always fits, and a cut never splits an
/// entity or a character.
public struct TelegramRequestBuilder: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The most characters of a message's text (after entity parsing), and of a caption.
    public static let messageLimit = 4096
    public static let captionLimit = 1024
    /// The most characters of the bold title line.
    static let titleLimit = 256
    /// An answer is read up to this size (a Bot API answer echoes the message).
    static let maximumResponseBytes = 1 << 20

    let settings: TelegramSettings
    /// The service's scheme and host, for messages.
    public let endpoint: WebhookEndpoint

    public init(_ settings: TelegramSettings) throws(ServiceConfigurationError) {
        do {
            endpoint = try WebhookEndpoint(settings.apiURL)
        } catch {
            throw ServiceConfigurationError("api_url: \(error)")
        }
        let tokenCharacters = settings.token.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == ":" || $0 == "_" || $0 == "-"
        }
        guard !settings.token.isEmpty, tokenCharacters else {
            throw ServiceConfigurationError("token: expected a bot token such as 123456:ABC-DEF1234ghIkl (from @BotFather), "
                                            + "found \(settings.token.isEmpty ? "an empty one" : "one with other characters")")
        }
        if let problem = TelegramSettings.problem(chat: settings.chat) { throw ServiceConfigurationError("chat: \(problem)") }
        if let problem = ServiceTimeout.problem(settings.timeout) { throw problem }
        self.settings = settings
    }

    public var description: String { "TelegramRequestBuilder(\(endpoint.display), \(settings))" }
    public var debugDescription: String { description }

    /// The strings no message may show: the token (the redactor also finds parts of it).
    var secrets: [String] { [settings.token] }

    /// `sendMessage` for `content`.
    func message(_ content: ServiceContent) -> HTTPRequest {
        var json = JSONWriter()
        chat(into: &json)
        json.string("text", html(content, limit: Self.messageLimit))
        json.string("parse_mode", "HTML")
        json.boolean("disable_notification", isSilent(content))
        json.raw("link_preview_options", #"{"is_disabled":true}"#)
        return request("sendMessage", contentType: "application/json", body: Array(json.result.utf8))
    }

    /// `sendPhoto` of `chart` with `content` as its caption.
    func photo(_ content: ServiceContent, chart: NotificationAttachment) -> HTTPRequest {
        var form = MultipartForm()
        form.field("chat_id", settings.chat)
        if let topic = settings.topic { form.field("message_thread_id", String(topic)) }
        form.field("caption", html(content, limit: Self.captionLimit))
        form.field("parse_mode", "HTML")
        form.field("disable_notification", isSilent(content) ? "true" : "false")
        form.file("photo", filename: chart.filename, contentType: chart.contentType, bytes: chart.bytes)
        return request("sendPhoto", contentType: form.contentType, body: form.body)
    }

    /// Whether Telegram should deliver it without sound: `silent = true` and not urgent.
    func isSilent(_ content: ServiceContent) -> Bool { settings.silent && !content.isUrgent }

    /// `<b>title</b>` and the text, escaped, within `limit` characters as Telegram counts them.
    func html(_ content: ServiceContent, limit: Int) -> String {
        let title = ServiceText.cut(content.title, to: Self.titleLimit)
        guard !content.lines.isEmpty else { return "<b>\(ServiceText.escapedHTML(title))</b>" }
        let text = content.text(fitting: limit - ServiceText.length(title) - 1)
        return "<b>\(ServiceText.escapedHTML(title))</b>\n" + ServiceText.escapedHTML(text)
    }

    private func chat(into json: inout JSONWriter) {
        if let id = Int64(settings.chat) {
            json.raw("chat_id", String(id))
        } else {
            json.string("chat_id", settings.chat)
        }
        if let topic = settings.topic { json.integer("message_thread_id", topic) }
    }

    private func request(_ method: String, contentType: String, body: [UInt8]) -> HTTPRequest {
        HTTPRequest(method: .post, url: ServiceText.join(settings.apiURL, "/bot\(settings.token)/\(method)"),
                    headers: [HTTPHeader("Content-Type", contentType)], body: body, timeout: settings.timeout,
                    maximumResponseBytes: Self.maximumResponseBytes, followsRedirects: false,
                    redactions: [settings.token, ServiceText.percentEncoded(settings.token)])
    }
}
