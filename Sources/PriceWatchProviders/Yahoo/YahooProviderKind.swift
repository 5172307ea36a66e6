import PriceWatchCore

extension YahooProvider {
    /// `type = "yahoo"`: its keys and its factory.
    public static let kind = ProviderKind(
        schema: AdapterSchema(type: "yahoo", summary: "Yahoo Finance, keyless: equities, funds, indices, crypto, currencies", fields: [
            .init("session_url", .url, "where the session cookie comes from (default https://fc.yahoo.com, or base_url when that is set)"),
            .init("user_agent", .string, "the User-Agent sent to Yahoo (default: a browser's; Yahoo refuses others)"),
        ]),
        make: { settings, context in
            AdapterBuild(YahooProvider(name: settings.name, transport: context.http, baseURL: settings.baseURL,
                                       sessionURL: settings.options.string("session_url"),
                                       userAgent: settings.options.string("user_agent"), now: context.wallClock))
        })
}
