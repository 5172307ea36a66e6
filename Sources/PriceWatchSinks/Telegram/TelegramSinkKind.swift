import PriceWatchCore

extension TelegramSink {
    /// `type = "telegram"`, or `url = "tgram://TOKEN/CHAT"`: its keys and its factory.
    public static let kind = SinkKind(
        schema: schema,
        make: { settings, context in
            do {
                return AdapterBuild(try TelegramSink(name: settings.name, settings: TelegramSettings(settings.options), transport: context.http,
                                                     charts: context.alertCharts, urgentRules: context.urgentRules))
            } catch {
                return .error("\(error)", table: "sinks.\(settings.name)", context: context)
            }
        })

    /// The keys of a `[sinks.NAME]` table of type `telegram`, with their defaults.
    public static let schema = AdapterSchema(
        type: "telegram", summary: "sends each alert to a Telegram chat through a bot (Bot API sendMessage, HTML)", fields: [
            .init("token", .secret, required: true, "the bot's token from @BotFather: { file = ... }, { credential = ... } or { env = ... }"),
            .init("chat", .string, required: true, "the chat id (-1001234567890) or public channel (@my_channel) to send to"),
            .init("topic", .positiveInteger, "the forum topic (message_thread_id) to send to"),
            .init("silent", .boolean, default: .boolean(false), "non-urgent notifications arrive without sound (disable_notification)"),
            .init("api_url", .url, default: .string("https://api.telegram.org"), "the Bot API server (a self-hosted one, a test server)"),
            .init("chart", .boolean, default: .boolean(false), "single alerts are sent as a chart of the symbol's recent prices (sendPhoto) with the message as its caption"),
            ServiceTimeout.field,
        ], check: { options in
            guard let chat = options.string("chat"), let problem = TelegramSettings.problem(chat: chat) else { return [] }
            return [AdapterSchema.Problem(key: "chat", index: nil, message: problem)]
        }, shorthand: shorthand,
        // Telegram's FAQ: no more than 20 messages a minute to one group (and about one a
        // second to one chat); a sink sends to one chat.
        defaultRateLimit: DeliveryRateLimit(attempts: 20, windowMilliseconds: 60_000))

    /// `tgram://TOKEN/CHAT`, `tgram://TOKEN/CHAT:TOPIC`, with `?silent=yes` and `?topic=N`
    /// (Apprise's form; one chat per sink).
    static let shorthand = URLShorthand(schemes: ["tgram"], examples: ["tgram://TOKEN/CHAT"]) { (url: ShorthandURL, origin: String) throws(ShorthandURL.Problem) -> AdapterOptions in
        guard url.user == nil else { throw ShorthandURL.Problem("expected the bot token right after tgram://, found an '@'") }
        var token = url.host
        if token.hasPrefix("bot"), token.dropFirst(3).first?.isNumber == true { token = String(token.dropFirst(3)) }
        guard !token.isEmpty else { throw ShorthandURL.Problem("expected the bot token after tgram://, found none") }
        guard let target = url.path.first else { throw ShorthandURL.Problem("expected a chat after the token, found none") }
        guard url.path.count == 1 else {
            throw ShorthandURL.Problem("expected one chat, found \(url.path.count): write one sink per chat")
        }
        var options = AdapterOptions(["token": .secret(Secret(value: token, origin: origin))])
        var chat = target
        if let colon = target.lastIndex(of: ":"), let topic = Int(target[target.index(after: colon)...]) {
            chat = String(target[..<colon])
            options["topic"] = .integer(topic)
        }
        options["chat"] = .string(chat)
        if let topic = url.queryValue("topic") ?? url.queryValue("thread") {
            guard let number = Int(topic), number > 0 else { throw ShorthandURL.Problem("query parameter 'topic': expected a positive integer") }
            options["topic"] = .integer(number)
        }
        if let silent = try url.queryFlag("silent") { options["silent"] = .boolean(silent) }
        return options
    }
}
