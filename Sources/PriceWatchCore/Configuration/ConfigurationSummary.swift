/// The one-line summary of a configuration used by `pricewatch check`, the start-up log line
/// and the service status: `4 rules on 2 symbols, 1 provider, 1 sink` (`4 rules and 1 portfolio
/// rule on 3 symbols, ...` when there are portfolio rules; `, 2 event rules` at the end when
/// there are event rules).
public enum ConfigurationSummary {
    public static func line(_ configuration: Configuration) -> String {
        func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        let portfolios = configuration.portfolioRules.isEmpty ? ""
            : " and \(plural(configuration.portfolioRules.count, "portfolio rule"))"
        let events = configuration.eventRules.isEmpty ? ""
            : ", \(plural(configuration.eventRules.count, "event rule"))"
        return "\(plural(configuration.rules.count, "rule"))\(portfolios) on \(plural(configuration.allSymbols.count, "symbol")), "
            + "\(plural(configuration.providers.count, "provider")), \(plural(configuration.sinks.count, "sink"))"
            + events
    }
}
