import PriceWatchCore

/// What a `[sinks.NAME]` table of type `telegram` configures (or its `tgram://` URL): read
/// from the options the loader decoded. Its description shows no token.
public struct TelegramSettings: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The bot's token (`123456:ABC-DEF…`), sent in the request path, never printed.
    public var token: String
    /// A chat id (`-1001234567890`) or a public channel (`@prices`).
    public var chat: String
    /// A forum topic (`message_thread_id`).
    public var topic: Int?
    /// Non-urgent notifications arrive without sound (`disable_notification`).
    public var silent: Bool
    /// The Bot API server (a self-hosted one, a test server).
    public var apiURL: String
    /// Single alerts go out as a chart with the message as its caption (`sendPhoto`).
    public var chart: Bool
    /// The deadline of one request.
    public var timeout: Duration

    public init(token: String, chat: String, topic: Int? = nil, silent: Bool = false, apiURL: String, chart: Bool = false,
                timeout: Duration = ServiceTimeout.defaultTimeout) {
        self.token = token
        self.chat = chat
        self.topic = topic
        self.silent = silent
        self.apiURL = apiURL
        self.chart = chart
        self.timeout = timeout
    }

    /// The settings of a validated `[sinks.NAME]` table (defaults filled in by the loader).
    public init(_ options: AdapterOptions) {
        self.init(token: options.secret("token")?.value ?? "", chat: options.string("chat") ?? "", topic: options.integer("topic"),
                  silent: options.boolean("silent") == true, apiURL: options.string("api_url") ?? "",
                  chart: options.boolean("chart") == true, timeout: ServiceTimeout.value(options))
    }

    /// Why `chat` is not a chat: nil for `-1001234567890`, `12345` or `@channel_name`.
    static func problem(chat: String) -> String? {
        let digits = chat.hasPrefix("-") ? chat.dropFirst() : Substring(chat)
        if !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) { return nil }
        if chat.hasPrefix("@"), chat.count > 1, chat.dropFirst().allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) {
            return nil
        }
        return "expected a chat id such as -1001234567890 or a channel such as @my_channel, found \(ServiceWording.quoted(chat))"
    }

    public var description: String {
        "TelegramSettings(chat: \(chat), topic: \(topic.map(String.init) ?? "none"), silent: \(silent), chart: \(chart), token: <secret>)"
    }

    public var debugDescription: String { description }
}
