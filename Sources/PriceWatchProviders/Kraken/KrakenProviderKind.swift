import PriceWatchCore

extension KrakenProvider {
    /// `type = "kraken"`: its keys and its factory.
    public static let kind = ProviderKind(
        schema: AdapterSchema(type: "kraken", summary: "Kraken tickers, keyless: pairs such as XBTUSD", fields: []),
        make: { settings, context in
            AdapterBuild(KrakenProvider(name: settings.name, transport: context.http, baseURL: settings.baseURL, now: context.wallClock))
        })
}
