import PriceWatchCore

extension GotifySink {
    /// `type = "gotify"`, or `url = "gotify://HOST/TOKEN"`: its keys and its factory.
    public static let kind = SinkKind(
        schema: schema,
        make: { settings, context in
            do {
                return AdapterBuild(try GotifySink(name: settings.name, settings: GotifySettings(settings.options), transport: context.http,
                                                   urgentRules: context.urgentRules))
            } catch {
                return .error("\(error)", table: "sinks.\(settings.name)", context: context)
            }
        })

    /// The keys of a `[sinks.NAME]` table of type `gotify`.
    public static let schema = AdapterSchema(
        type: "gotify", summary: "sends each alert as a Gotify message, urgent rules at high priority", fields: [
            .init("url", .url, required: true, "the Gotify server, `https://push.example.com` (with its path, behind a proxy)"),
            .init("token", .secret, required: true, "the application's token: { file = ... }, { credential = ... } or { env = ... }"),
            ServiceTimeout.field,
        ], shorthand: shorthand)

    /// `gotify://HOST/TOKEN`, `gotify://HOST:PORT/PATH/TOKEN` (http) and `gotifys://…` (https),
    /// Apprise's forms.
    static let shorthand = URLShorthand(schemes: ["gotify", "gotifys"], examples: ["gotify://HOST/TOKEN", "gotifys://HOST:PORT/PATH/TOKEN"]) {
        (url: ShorthandURL, origin: String) throws(ShorthandURL.Problem) -> AdapterOptions in
        guard url.user == nil else { throw ShorthandURL.Problem("expected HOST/TOKEN, found credentials before the host") }
        guard !url.host.isEmpty else { throw ShorthandURL.Problem("expected a host after '://', found none") }
        guard let token = url.path.last else { throw ShorthandURL.Problem("expected the application token after the host, found none") }
        let path = url.path.dropLast().map { ServiceText.percentEncoded($0) }.joined(separator: "/")
        let base = (url.scheme == "gotifys" ? "https://" : "http://") + url.authority + (path.isEmpty ? "" : "/" + path)
        return AdapterOptions(["url": .string(base), "token": .secret(Secret(value: token, origin: origin))])
    }
}
