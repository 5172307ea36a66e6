import PriceWatchCore

extension YahooProvider {
    /// `type = "yahoo"`: its keys and its factory.
    public static let kind = ProviderKind(
        schema: schema,
        make: { settings, context in
            AdapterBuild(YahooProvider(name: settings.name, transport: context.http, baseURL: settings.baseURL,
                                       sessionURL: settings.options.string("session_url"),
                                       userAgent: settings.options.string("user_agent"), now: context.wallClock,
                                       budget: { [budget = context.requestBudget, name = settings.name] in
                                           try await budget.acquire(for: name)
                                       }))
        })

    /// The keys of a `[providers.NAME]` table of type `yahoo`, with their defaults.
    /// (`session_url` has none of its own: without it, the session comes from `base_url` when
    /// that is set, else from ``defaultSessionURL``.)
    public static let schema = AdapterSchema(
        type: "yahoo", summary: "Yahoo Finance, keyless: equities, funds, indices, crypto, currencies", fields: [
            .init("session_url", .url, "where the session cookie comes from (without it: base_url when that is set, else https://fc.yahoo.com)"),
            .init("user_agent", .string, default: .string("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"),
                  "the User-Agent sent to Yahoo (a browser's: Yahoo refuses others)"),
        ])
}
