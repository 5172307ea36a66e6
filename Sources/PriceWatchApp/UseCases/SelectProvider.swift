import FoundationEssentials
import PriceWatchConfig
import PriceWatchCore
import PriceWatchCurl

/// The provider `quote` and `search` ask: the requested one, else the main file's `provider`,
/// else the only provider. The configuration's warnings are not this lookup's business (they
/// are about rules); its errors are.
public enum SelectProvider {
    /// A provider built from its `[providers.NAME]` table.
    public struct Selection: Sendable {
        public let name: String
        public let type: String
        public let provider: any QuoteProvider
        /// The provider's `fallback` providers, in order, built (those that could be).
        public var fallbacks: [any QuoteProvider] = []
    }

    public enum Outcome: Sendable {
        /// The configuration, or this provider, has errors (given to `report`).
        case configurationFailed
        /// No usable provider: one line that says why.
        case failed(String)
        case selected(Selection)
    }

    /// Selects the provider; with `builtInWhenAbsent` (no file named by the operator) and no
    /// file at `configPath`, from the keyless ``BuiltInProviders`` instead.
    public static func select(configPath: String, environment: [String: String], requested: String?,
                              builtInWhenAbsent: Bool = false, report: ([Diagnostic]) -> Void) -> Outcome {
        let (loaded, diagnostics) = builtInWhenAbsent && !FileManager.default.fileExists(atPath: configPath)
            ? (BuiltInProviders.configuration(environment: environment), [])
            : ConfigurationLoader.load(mainFile: configPath, environment: environment, schemas: AdapterCatalog.schemas)
        if let loaded { SecretRedaction.commandOutput.update(for: loaded) }
        let errors = diagnostics.filter { $0.severity == .error }
        guard let configuration = loaded, errors.isEmpty else {
            report(errors)
            return .configurationFailed
        }
        let names = configuration.providers.map(\.name)
        guard let name = requested ?? configuration.defaultProvider else {
            return .failed("\(configuration.mainFile): error: several providers and no default: name one with --provider (providers: \(names.joined(separator: ", ")))")
        }
        guard let settings = configuration.provider(named: name) else {
            return .failed("\(configuration.mainFile): error: no provider '\(name)' (providers: \(names.joined(separator: ", ")))")
        }
        var only = configuration
        only.providers = [settings] + settings.fallback.compactMap(configuration.provider(named:))
        let (built, problems) = AdapterFactory.providers(for: only, transport: CurlHTTPTransport())
        guard let provider = built[name], !problems.containsErrors else {
            report(problems)
            return .configurationFailed
        }
        return .selected(Selection(name: name, type: settings.type, provider: provider,
                                   fallbacks: settings.fallback.compactMap { built[$0] }))
    }
}
