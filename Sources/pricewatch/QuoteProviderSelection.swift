import ArgumentParser
import Foundation
import PriceWatchConfig
import PriceWatchCore
import PriceWatchCurl
import PriceWatchEngine

/// The provider `quote` and `search` ask: `--provider NAME`, else the main file's `provider`,
/// else the only provider. Prints the configuration's errors (not its warnings: they are about
/// rules, not about this lookup) and exits 1 when there is no usable provider. Without any
/// configuration file (none named and none at the default path) it uses the keyless
/// `BuiltInProviders`.
struct QuoteProviderSelection {
    let name: String
    let type: String
    let provider: any QuoteProvider

    static func load(config: ConfigOption, requested: String?) throws -> QuoteProviderSelection {
        let configPath = config.path
        let environment = ProcessInfo.processInfo.environment
        let (loaded, diagnostics) = config.isDefault && !FileManager.default.fileExists(atPath: configPath)
            ? (BuiltInProviders.configuration(environment: environment), [])
            : ConfigurationLoader.load(mainFile: configPath, environment: environment)
        let errors = diagnostics.filter { $0.severity == .error }
        guard let configuration = loaded, errors.isEmpty else {
            StandardOutput.report(errors)
            throw ExitCode.failure
        }
        let names = configuration.providers.map(\.name)
        guard let name = requested ?? configuration.defaultProvider else {
            throw failure("\(configuration.mainFile): error: several providers and no default: name one with --provider (providers: \(names.joined(separator: ", ")))")
        }
        guard let settings = configuration.provider(named: name) else {
            throw failure("\(configuration.mainFile): error: no provider '\(name)' (providers: \(names.joined(separator: ", ")))")
        }
        var only = configuration
        only.providers = [settings]
        let (built, problems) = AdapterFactory.providers(for: only, transport: CurlHTTPTransport())
        guard let provider = built[name], !problems.containsErrors else {
            StandardOutput.report(problems)
            throw ExitCode.failure
        }
        return QuoteProviderSelection(name: name, type: settings.type, provider: provider)
    }

    /// Prints `line` to standard error; the exit status 1 to throw.
    private static func failure(_ line: String) -> ExitCode {
        var errors = StandardOutput.error()
        errors.line(line)
        errors.flush()
        return .failure
    }
}
