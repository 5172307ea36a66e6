import PriceWatchCore

extension PushoverSink {
    /// `type = "pushover"`, or `url = "pover://USER@TOKEN"`: its keys and its factory.
    public static let kind = SinkKind(
        schema: schema,
        make: { settings, context in
            do {
                return AdapterBuild(try PushoverSink(name: settings.name, settings: PushoverSettings(settings.options), transport: context.http,
                                                     charts: context.alertCharts, urgentRules: context.urgentRules))
            } catch {
                return .error("\(error)", table: "sinks.\(settings.name)", context: context)
            }
        })

    /// The keys of a `[sinks.NAME]` table of type `pushover`, with their defaults.
    public static let schema = AdapterSchema(
        type: "pushover", summary: "sends each alert as a Pushover message, urgent rules at high priority", fields: [
            .init("token", .secret, required: true, "the application's API token: { file = ... }, { credential = ... } or { env = ... }"),
            .init("user", .string, required: true, "the user or group key the messages go to"),
            .init("device", .string, "one of the user's devices (default: all of them)"),
            .init("retry", .duration, "with `expire`: urgent rules at emergency priority (2), repeated this often (at least 30s) until acknowledged"),
            .init("expire", .duration, "with `retry`: how long an emergency notification is repeated (at most 3h)"),
            .init("api_url", .url, default: .string("https://api.pushover.net"), "the Pushover API server (a test server)"),
            .init("chart", .boolean, default: .boolean(false), "single alerts carry a chart of the symbol's recent prices as the attachment"),
            ServiceTimeout.field,
        ], check: { options in
            PushoverSettings.problems(retry: options.duration("retry").map { .seconds($0.seconds) },
                                      expire: options.duration("expire").map { .seconds($0.seconds) })
                .map { AdapterSchema.Problem(key: $0.key, index: nil, message: $0.message) }
        }, shorthand: shorthand)

    /// `pover://USER@TOKEN` and `pover://USER@TOKEN/DEVICE` (Apprise's form; one device).
    static let shorthand = URLShorthand(schemes: ["pover"], examples: ["pover://USER@TOKEN", "pover://USER@TOKEN/DEVICE"]) {
        (url: ShorthandURL, origin: String) throws(ShorthandURL.Problem) -> AdapterOptions in
        guard let user = url.user, !user.isEmpty else { throw ShorthandURL.Problem("expected the user key before '@', found none") }
        guard url.password == nil else { throw ShorthandURL.Problem("expected USER@TOKEN, found a ':' in the user key") }
        guard !url.host.isEmpty else { throw ShorthandURL.Problem("expected the application token after '@', found none") }
        guard url.path.count <= 1 else {
            throw ShorthandURL.Problem("expected at most one device, found \(url.path.count): write one sink per device, or none for all")
        }
        var options = AdapterOptions(["token": .secret(Secret(value: url.host, origin: origin)), "user": .string(user)])
        if let device = url.path.first { options["device"] = .string(device) }
        return options
    }
}
