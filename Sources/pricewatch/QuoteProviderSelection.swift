import ArgumentParser
import Foundation
import PriceWatchApp

/// The provider `quote` and `search` ask (``SelectProvider``): prints the configuration's
/// errors, or why there is no usable provider, and exits 1 when there is none.
enum QuoteProviderSelection {
    static func load(configPath: String, requested: String?) throws -> SelectProvider.Selection {
        switch SelectProvider.select(configPath: configPath, environment: ProcessInfo.processInfo.environment,
                                     requested: requested, report: StandardOutput.report) {
        case .configurationFailed:
            throw ExitCode.failure
        case .failed(let line):
            var errors = StandardOutput.error()
            errors.line(line)
            errors.flush()
            throw ExitCode.failure
        case .selected(let selection):
            return selection
        }
    }
}
