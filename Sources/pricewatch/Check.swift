import ArgumentParser
import Foundation
import PriceWatchApp
import PriceWatchCore

/// `pricewatch check`: validate the main file and every rule file.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate the configuration; print a one-line summary on success.",
        discussion: "Every error of every file is printed to standard error as PATH:LINE:COLUMN: error: MESSAGE.")

    @OptionGroup var config: ConfigOption

    func run() throws {
        let (configuration, all) = CheckConfiguration.run(configPath: config.path, environment: ProcessInfo.processInfo.environment)
        StandardOutput.report(all)
        guard let configuration else { throw ExitCode(1) }
        var output = StandardOutput.output()
        output.line("\(config.path): ok: \(ConfigurationSummary.line(configuration))")
        output.flush()
    }
}
