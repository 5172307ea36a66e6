import PriceWatchCore

extension CoinbaseProvider {
    /// `type = "coinbase"`: its keys and its factory.
    public static let kind = ProviderKind(
        schema: AdapterSchema(type: "coinbase", summary: "Coinbase spot prices, keyless: pairs such as BTC-USD", fields: []),
        make: { settings, context in
            AdapterBuild(CoinbaseProvider(name: settings.name, transport: context.http, baseURL: settings.baseURL, now: context.wallClock))
        })
}
