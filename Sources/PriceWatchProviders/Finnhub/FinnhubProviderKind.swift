import PriceWatchCore

extension FinnhubProvider {
    /// `type = "finnhub"`: its keys and its factory.
    public static let kind = ProviderKind(
        schema: AdapterSchema(type: "finnhub", summary: "Finnhub: US equities; needs api_key", fields: [], requiresAPIKey: true),
        make: { settings, context in
            guard let key = settings.apiKey else {
                return .error("'api_key' is required for a finnhub provider", table: "providers.\(settings.name)", context: context)
            }
            return AdapterBuild(FinnhubProvider(name: settings.name, transport: context.http, apiKey: key.value, baseURL: settings.baseURL,
                                                now: context.wallClock))
        })
}
