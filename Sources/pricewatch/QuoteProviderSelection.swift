import ArgumentParser
import Foundation
import PriceWatchConfig
import PriceWatchCore
import PriceWatchCurl
import PriceWatchEngine

/// The provider `quote` and `search` ask: `--provider NAME`, else the main file's `provider`,
/// else the only provider. Prints the configuration's errors (not its warnings: they are about
/// rules, not about this lookup) and exits 1 when there is no usable provider.
struct QuoteProviderSelection {
    let name: String
    let type: String
    let provider: any QuoteProvider

    static func load(configPath: String, requested: String?) throws -> QuoteProviderSelection {
        let (loaded, diagnostics) = ConfigurationLoader.load(mainFile: configPath, environment: ProcessInfo.processInfo.environment)
        let errors = diagnostics.filter { $0.severity == .error }
        guard let configuration = loaded, errors.isEmpty else {
            StandardOutput.report(errors)
            throw ExitCode.failure
        }
        StandardOutput.redaction.update(for: configuration)
        let names = configuration.providers.map(\.name)
        guard let name = requested ?? configuration.defaultProvider else {
            throw failure("\(configPath): error: several providers and no default: name one with --provider (providers: \(names.joined(separator: ", ")))")
        }
        guard let settings = configuration.provider(named: name) else {
            throw failure("\(configPath): error: no provider '\(name)' (providers: \(names.joined(separator: ", ")))")
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
