/// The one-line summary of a configuration used by `pricewatch check`, the start-up log line
/// and the service status: `4 rules on 2 symbols, 1 provider, 1 sink`.
public enum ConfigurationSummary {
    public static func line(_ configuration: Configuration) -> String {
        func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        return "\(plural(configuration.rules.count, "rule")) on \(plural(configuration.allSymbols.count, "symbol")), "
            + "\(plural(configuration.providers.count, "provider")), \(plural(configuration.sinks.count, "sink"))"
    }
}
