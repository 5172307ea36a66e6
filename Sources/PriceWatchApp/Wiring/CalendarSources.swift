import PriceWatchCore

/// The calendar source of a configuration: Yahoo's calendar module, through the main file's
/// first provider of type `yahoo` (its `base_url`, `session_url` and `user_agent`), else
/// through Yahoo's defaults.
enum CalendarSources {
    static func yahoo(for configuration: Configuration, transport: any HTTPTransport) -> (any CompanyCalendarSource)? {
        let settings = configuration.providers.first { $0.type == "yahoo" }
            ?? ProviderConfiguration(name: "yahoo", type: "yahoo", interval: configuration.interval)
        var only = configuration
        only.providers = [settings]
        only.rules = []
        let built = AdapterFactory.providers(for: only, transport: transport).providers[settings.name]
        return built as? any CompanyCalendarSource
    }
}
