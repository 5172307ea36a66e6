import PriceWatchCore

extension CoinGeckoProvider {
    /// `type = "coingecko"`: its keys and its factory.
    public static let kind = ProviderKind(
        schema: AdapterSchema(type: "coingecko", summary: "CoinGecko crypto prices, keyless: pairs such as BTC-USD", fields: []),
        make: { settings, context in
            AdapterBuild(CoinGeckoProvider(name: settings.name, transport: context.http, baseURL: settings.baseURL, now: context.wallClock))
        })
}
