import PriceWatchCore

extension TwelveDataProvider {
    /// `type = "twelvedata"`: its keys and its factory.
    public static let kind = ProviderKind(
        schema: AdapterSchema(type: "twelvedata", summary: "Twelve Data: equities, ETFs, currencies, crypto; needs api_key", fields: [],
                              requiresAPIKey: true),
        make: { settings, context in
            guard let key = settings.apiKey else {
                return .error("'api_key' is required for a twelvedata provider", table: "providers.\(settings.name)", context: context)
            }
            return AdapterBuild(TwelveDataProvider(name: settings.name, transport: context.http, apiKey: key.value, baseURL: settings.baseURL))
        })
}
