import PriceWatchCore

/// The calendar sources of a configuration: Yahoo's calendar module, through the main file's
/// first provider of type `yahoo` (its `base_url`, `session_url` and `user_agent`), else
/// through Yahoo's defaults; Nasdaq's calendars (earnings, dividends with amounts, splits; US
/// listings) through its first provider of type `nasdaq`, and Finnhub's earnings calendar
/// through its first provider of type `finnhub` (which has a key), when there are such.
enum CalendarSources {
    static func sources(for configuration: Configuration, transport: any HTTPTransport) -> [any CompanyCalendarSource] {
        var chosen = [configuration.providers.first { $0.type == "yahoo" }
            ?? ProviderConfiguration(name: "yahoo", type: "yahoo", interval: configuration.interval)]
        for type in ["nasdaq", "finnhub"] {
            if let provider = configuration.providers.first(where: { $0.type == type }) { chosen.append(provider) }
        }
        var only = configuration
        only.providers = chosen
        only.rules = []
        let built = AdapterFactory.providers(for: only, transport: transport).providers
        return chosen.compactMap { built[$0.name] as? any CompanyCalendarSource }
    }
}
