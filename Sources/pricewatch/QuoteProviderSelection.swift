import ArgumentParser
import FoundationEssentials
import PriceWatchApp

/// The provider `quote` and `search` ask (``SelectProvider``): prints the configuration's
/// errors, or why there is no usable provider, and exits 1 when there is none. Without any
/// configuration file (none named and none at the default path) it uses the keyless built-in
/// providers.
enum QuoteProviderSelection {
    static func load(config: ConfigOption, requested: String?) throws -> SelectProvider.Selection {
        switch SelectProvider.select(configPath: config.path, environment: ProcessInfo.processInfo.environment,
                                     requested: requested, builtInWhenAbsent: config.isDefault, report: StandardOutput.report) {
        case .configurationFailed:
            throw ExitCode.failure
        case .failed(let line):
            throw StandardOutput.failure(line)
        case .selected(let selection):
            return selection
        }
    }
}
