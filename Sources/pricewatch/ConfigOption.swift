import ArgumentParser
import Foundation

/// `--config PATH`, shared by every command that reads the configuration.
struct ConfigOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The main configuration file.", valueName: "path"))
    var config: String?

    /// `--config`, else `$PRICEWATCH_CONFIG`, else `/etc/pricewatch/pricewatch.toml`.
    var path: String {
        config ?? ProcessInfo.processInfo.environment["PRICEWATCH_CONFIG"] ?? "/etc/pricewatch/pricewatch.toml"
    }
}
