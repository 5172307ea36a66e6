import PriceWatchCore

/// What a `[sinks.NAME]` table of type `gotify` configures (or its `gotify://` URL). Its
/// description shows no token.
public struct GotifySettings: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The Gotify server (`https://push.example.com`, or with a path behind a proxy).
    public var url: String
    /// The application's token, sent as `X-Gotify-Key`, never printed.
    public var token: String
    /// The deadline of one request.
    public var timeout: Duration

    public init(url: String, token: String, timeout: Duration = ServiceTimeout.defaultTimeout) {
        self.url = url
        self.token = token
        self.timeout = timeout
    }

    /// The settings of a validated `[sinks.NAME]` table.
    public init(_ options: AdapterOptions) {
        self.init(url: options.string("url") ?? "", token: options.secret("token")?.value ?? "", timeout: ServiceTimeout.value(options))
    }

    public var description: String { "GotifySettings(token: <secret>)" }
    public var debugDescription: String { description }
}
