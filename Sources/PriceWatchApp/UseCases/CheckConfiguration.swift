import PriceWatchConfig
import PriceWatchCore

/// `pricewatch check`: loads and validates the configuration and builds its adapters (which
/// checks what only they know, a replay file's rows).
public enum CheckConfiguration {
    /// The configuration when it is valid, and every diagnostic of every file.
    public static func run(configPath: String, environment: [String: String]) -> (configuration: Configuration?, diagnostics: [Diagnostic]) {
        let (configuration, diagnostics) = ConfigurationLoader.load(mainFile: configPath, environment: environment, schemas: AdapterCatalog.schemas)
        if let configuration { SecretRedaction.commandOutput.update(for: configuration) }
        var all = diagnostics
        if let configuration, !diagnostics.containsErrors {
            let transports = NetworkTransports()
            all += AdapterFactory.providers(for: configuration, transport: transports.http).diagnostics
            all += AdapterFactory.sinks(for: configuration, transport: transports.http, mailTransport: transports.mail).diagnostics
        }
        // The operator's trading calendars (calendars.d beside the main file): errors fail the check.
        all += MarketCalendarsLoader.checkOverrides(configPath: configPath, environment: environment)
        guard let configuration, !all.containsErrors else { return (nil, all) }
        return (configuration, all)
    }
}
