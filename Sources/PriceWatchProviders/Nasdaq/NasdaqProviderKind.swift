import PriceWatchCore

extension NasdaqProvider {
    /// `type = "nasdaq"`: its keys and its factory.
    public static let kind = ProviderKind(
        schema: AdapterSchema(type: "nasdaq", summary: "Nasdaq's public quote API, keyless: US stocks and ETFs (AAPL, BRK.B)", fields: []),
        make: { settings, context in
            AdapterBuild(NasdaqProvider(name: settings.name, transport: context.http, baseURL: settings.baseURL, now: context.wallClock))
        })
}
