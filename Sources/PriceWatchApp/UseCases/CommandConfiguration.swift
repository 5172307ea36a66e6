import PriceWatchConfig
import PriceWatchCore

/// The configuration as a command reads it: loaded with the adapter catalog's schemas, its
/// secrets registered for redaction of everything the command prints, and only its errors
/// reported (warnings are `pricewatch check`'s business).
enum CommandConfiguration {
    /// The configuration at `configPath`, or nil when it has errors (given to `report`).
    static func load(configPath: String, environment: [String: String], report: ([Diagnostic]) -> Void) -> Configuration? {
        let (loaded, diagnostics) = ConfigurationLoader.load(mainFile: configPath, environment: environment, schemas: AdapterCatalog.schemas)
        if let loaded { SecretRedaction.commandOutput.update(for: loaded) }
        guard let configuration = loaded, !diagnostics.containsErrors else {
            report(diagnostics.filter { $0.severity == .error })
            return nil
        }
        return configuration
    }
}
