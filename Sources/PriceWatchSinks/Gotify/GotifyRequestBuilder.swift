import PriceWatchCore

/// The pure half of the Gotify sink: `POST /message` (https://gotify.net/api-docs) with the
/// token in `X-Gotify-Key` and a JSON body: `title`, `message` (markdown), `priority` (8 for
/// urgent rules, 5 otherwise: both notify on Gotify's Android client, 8 also pops up), and
/// `extras` `{"client::display":{"contentType":"text/markdown"}}`.
public struct GotifyRequestBuilder: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The priorities sent.
    public static let urgentPriority = 8
    public static let normalPriority = 5
    /// The most characters of a message (Gotify has no limit of its own; clients show less).
    public static let messageLimit = 16_000

    let settings: GotifySettings
    public let endpoint: WebhookEndpoint

    public init(_ settings: GotifySettings) throws(ServiceConfigurationError) {
        do {
            endpoint = try WebhookEndpoint(settings.url)
        } catch {
            throw ServiceConfigurationError("url: \(error)")
        }
        guard !settings.token.isEmpty, settings.token.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
            throw ServiceConfigurationError("token: expected an application token of printable characters, found "
                                            + (settings.token.isEmpty ? "an empty one" : "one with other characters"))
        }
        if let problem = ServiceTimeout.problem(settings.timeout) { throw problem }
        self.settings = settings
    }

    public var description: String { "GotifyRequestBuilder(\(endpoint.display))" }
    public var debugDescription: String { description }

    var secrets: [String] { [settings.token] + endpoint.sensitiveParts }

    func request(_ content: ServiceContent) -> HTTPRequest {
        var json = JSONWriter()
        json.string("title", content.title)
        json.string("message", Self.markdown(content.lines.isEmpty ? content.title : content.text(fitting: Self.messageLimit)))
        json.integer("priority", content.isUrgent ? Self.urgentPriority : Self.normalPriority)
        json.raw("extras", #"{"client::display":{"contentType":"text/markdown"}}"#)
        return HTTPRequest(method: .post, url: ServiceText.join(settings.url, "/message"),
                           headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("X-Gotify-Key", settings.token)],
                           body: Array(json.result.utf8), timeout: settings.timeout, maximumResponseBytes: 1 << 20,
                           followsRedirects: false, redactions: secrets)
    }

    /// Plain text as markdown that shows it as written: markdown's punctuation escaped, and
    /// each line break a hard one (two spaces before it).
    static func markdown(_ text: String) -> String {
        let special: Set<Character> = ["\\", "`", "*", "_", "{", "}", "[", "]", "<", ">", "(", ")", "#", "+", "-", "!", "|", "~"]
        var result = ""
        for character in text {
            if character == "\n" {
                result += "  \n"
            } else {
                if special.contains(character) { result.append("\\") }
                result.append(character)
            }
        }
        return result
    }
}
