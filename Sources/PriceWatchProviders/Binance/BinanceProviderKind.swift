import PriceWatchCore

extension BinanceProvider {
    /// `type = "binance"`: its keys and its factory.
    public static let kind = ProviderKind(
        schema: AdapterSchema(type: "binance", summary: "Binance 24-hour tickers, keyless: symbols such as BTCUSDT", fields: []),
        make: { settings, context in
            AdapterBuild(BinanceProvider(name: settings.name, transport: context.http, baseURL: settings.baseURL))
        })
}
