import PriceWatchConfig

/// Shell completion of names the configuration defines: sinks, digests, rule ids. Read from
/// the main file and its rule files without secrets or checks (``ConfigurationLoader/names(mainFile:)``),
/// so completion works in an operator's shell and on a configuration with errors.
public enum ReadCompletionNames {
    /// What to complete.
    public enum Kind: Sendable {
        case sinks, digests, rules
    }

    /// The names of `kind` in the configuration at `configPath`; empty when it cannot be read.
    public static func names(_ kind: Kind, configPath: String) -> [String] {
        let names = ConfigurationLoader.names(mainFile: configPath)
        switch kind {
        case .sinks: return names.sinks
        case .digests: return names.digests
        case .rules: return names.rules
        }
    }
}
