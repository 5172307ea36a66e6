import ArgumentParser
import PriceWatchConfig
import PriceWatchCore
import PriceWatchEngine
import Foundation

/// `pricewatch check`: validate the main file and every rule file.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate the configuration; print a one-line summary on success.",
        discussion: "Every error of every file is printed to standard error as PATH:LINE:COLUMN: error: MESSAGE.")

    @OptionGroup var config: ConfigOption
    @OptionGroup var credentials: CredentialsDirectoryOption

    func run() throws {
        let (serviceCredentials, environment) = credentials.resolve()
        defer { serviceCredentials.cleanUp() }
        let (configuration, diagnostics) = ConfigurationLoader.load(mainFile: config.path, environment: environment)
        var all = diagnostics
        if let configuration, !diagnostics.containsErrors {
            // Building the adapters checks what only they know (a replay file's rows).
            let transports = NetworkTransports()
            all += AdapterFactory.providers(for: configuration, transport: transports.http).diagnostics
            all += AdapterFactory.sinks(for: configuration, transport: transports.http, mailTransport: transports.mail).diagnostics
        }
        StandardOutput.report(all)
        guard let configuration, !all.containsErrors else { throw ExitCode(1) }
        var output = StandardOutput.output()
        output.line("\(config.path): ok: \(ConfigurationSummary.line(configuration))")
        output.flush()
    }
}
