import ArgumentParser
import FoundationEssentials

/// `--config PATH`, shared by every command that reads the configuration.
struct ConfigOption: ParsableArguments {
    @Option(name: .long,
            help: ArgumentHelp("The main configuration file (default: $PRICEWATCH_CONFIG, else /etc/pricewatch/pricewatch.toml).",
                               valueName: "path"),
            completion: .file(extensions: ["toml"]))
    var config: String?

    /// Whether neither `--config` nor `$PRICEWATCH_CONFIG` names the file (the default path).
    var isDefault: Bool { config == nil && ProcessInfo.processInfo.environment["PRICEWATCH_CONFIG"] == nil }

    /// `--config`, else `$PRICEWATCH_CONFIG`, else `/etc/pricewatch/pricewatch.toml`.
    var path: String {
        config ?? ProcessInfo.processInfo.environment["PRICEWATCH_CONFIG"] ?? "/etc/pricewatch/pricewatch.toml"
    }
}
