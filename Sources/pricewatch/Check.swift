import ArgumentParser
import FoundationEssentials
import PriceWatchApp
import PriceWatchCore

/// `pricewatch check`: validate the main file and every rule file.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate the configuration; print a one-line summary on success.",
        discussion: "Every error of every file is printed to standard error as PATH:LINE:COLUMN: error: MESSAGE.")

    @OptionGroup var config: ConfigOption
    @OptionGroup var credentials: CredentialsDirectoryOption

    @Flag(help: "Also check the state database: that it is not damaged or emptied and this version can use it (read-only).")
    var state = false

    func run() throws {
        let (serviceCredentials, environment) = credentials.resolve()
        defer { serviceCredentials.cleanUp() }
        let (configuration, all) = CheckConfiguration.run(configPath: config.path, environment: environment)
        StandardOutput.report(all)
        let stateUsable = !state || StateCheck.report(mainFile: config.path)
        guard let configuration else { throw ExitCode(1) }
        var output = StandardOutput.output()
        output.line("\(config.path): ok: \(ConfigurationSummary.line(configuration))")
        output.flush()
        if !stateUsable { throw ExitCode(1) }
    }
}
