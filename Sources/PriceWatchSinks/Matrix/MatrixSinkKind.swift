import PriceWatchCore

extension MatrixSink {
    /// `type = "matrix"`, or `url = "matrixs://TOKEN@HOST/!ROOM:HOST"`: its keys and its factory.
    public static let kind = SinkKind(
        schema: schema,
        make: { settings, context in
            do {
                return AdapterBuild(try MatrixSink(name: settings.name, settings: MatrixSettings(settings.options), transport: context.http,
                                                   charts: context.alertCharts, urgentRules: context.urgentRules))
            } catch {
                return .error("\(error)", table: "sinks.\(settings.name)", context: context)
            }
        })

    /// The keys of a `[sinks.NAME]` table of type `matrix`.
    public static let schema = AdapterSchema(
        type: "matrix", summary: "posts each alert to a Matrix room (m.notice, or m.text for urgent rules)", fields: [
            .init("homeserver", .url, required: true, "the homeserver's client-server API, `https://matrix.example.org`"),
            .init("room", .string, required: true, "the room id, `!AbCdEf:example.org`, or an alias, `#prices:example.org` (the bot must have joined the room)"),
            .init("access_token", .secret, required: true, "the bot account's access token: { file = ... }, { credential = ... } or { env = ... }"),
            .init("chart", .boolean, default: .boolean(false), "single alerts are followed by a chart of the symbol's recent prices (m.image)"),
            ServiceTimeout.field,
        ], check: { options in
            guard let room = options.string("room"), let problem = MatrixSettings.problem(room: room) else { return [] }
            return [AdapterSchema.Problem(key: "room", index: nil, message: problem)]
        }, shorthand: shorthand,
        // Synapse's default for a user's messages (`rc_message`): 0.2 a second, bursts of 10.
        defaultRateLimit: DeliveryRateLimit(attempts: 10, windowMilliseconds: 60_000))

    /// `matrix://TOKEN@HOST/!ROOM` (http) and `matrixs://TOKEN@HOST:PORT/!ROOM:SERVER` (https),
    /// Apprise's access-token forms (also `?token=TOKEN`), with a room id (`!ROOM`) or an alias
    /// (`#ROOM`); one without its server gets the host's, as Apprise does. One room per sink;
    /// user and password logins are not taken.
    static let shorthand = URLShorthand(schemes: ["matrix", "matrixs"], examples: ["matrix://TOKEN@HOST/!ROOM", "matrixs://TOKEN@HOST/#ALIAS:SERVER"]) {
        (url: ShorthandURL, origin: String) throws(ShorthandURL.Problem) -> AdapterOptions in
        guard url.password == nil else {
            throw ShorthandURL.Problem("user and password logins are not supported: use an access token, matrixs://TOKEN@HOST/!ROOM")
        }
        guard let token = url.user ?? url.queryValue("token"), !token.isEmpty else {
            throw ShorthandURL.Problem("expected an access token before '@' (or ?token=), found none")
        }
        let (host, _) = url.hostAndPort
        guard !host.isEmpty else { throw ShorthandURL.Problem("expected the homeserver's host after '@', found none") }
        guard let target = url.path.first else { throw ShorthandURL.Problem("expected a room id or alias after the host, found none") }
        guard url.path.count == 1 else { throw ShorthandURL.Problem("expected one room, found \(url.path.count): write one sink per room") }
        let room = (target.hasPrefix("!") || target.hasPrefix("#")) && !target.contains(":") ? target + ":" + host : target
        let authority = url.authority.split(separator: "@").last.map(String.init) ?? url.authority
        return AdapterOptions([
            "homeserver": .string((url.scheme == "matrixs" ? "https://" : "http://") + authority),
            "room": .string(room),
            "access_token": .secret(Secret(value: token, origin: origin)),
        ])
    }
}
