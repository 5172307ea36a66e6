import FoundationEssentials
import PriceWatchConfig
import PriceWatchCore
import PriceWatchStore

/// `pricewatch rules`: every rule and symbol of the configuration with its state, last price
/// and last alert, read from the state database (read-only, so it works while the daemon runs).
public enum ReadRuleStatus {
    /// What reading found.
    public enum Outcome: Sendable {
        /// The configuration has errors (given to `report`).
        case configurationFailed
        /// The database could not be read: the error, for one line.
        case failed(String)
        /// One status per rule and symbol, in configuration order.
        case read([RuleStatus])
    }

    /// Reads the status at wall-clock `now` (for cooldowns and expiry). A state database that
    /// does not exist yet gives every rule its initial state.
    public static func read(configPath: String, environment: [String: String], now: Timestamp,
                            report: ([Diagnostic]) -> Void) async -> Outcome {
        guard let configuration = CommandConfiguration.load(configPath: configPath, environment: environment, report: report) else {
            return .configurationFailed
        }
        var states: [RuleStateKey: StoredRuleState] = [:]
        var quotes: [ProviderSymbol: HistoryPoint] = [:]
        var alerts: [RuleStateKey: AlertRecord] = [:]
        if FileManager.default.fileExists(atPath: configuration.statePath) {
            do {
                let store = try SQLiteAlertStore.openReadOnly(path: configuration.statePath)
                states = try await store.ruleStates()
                quotes = try await store.latestQuotes()
                alerts = try await store.lastAlerts()
                try store.close()
            } catch {
                return .failed("\(error)")
            }
        }
        var statuses: [RuleStatus] = []
        // Portfolio rules after price rules; their one symbol is the figure (`@retirement:value`).
        for rule in configuration.rules + configuration.portfolioRules {
            for symbol in rule.symbols {
                let key = RuleStateKey(rule: rule.id, symbol: symbol)
                let record = alerts[key]
                statuses.append(RuleStatus(
                    rule: rule.id, symbol: symbol, provider: rule.provider, condition: rule.conditionText,
                    state: RuleStatus.state(of: rule, stored: states[key], now: now),
                    lastPrice: rule.provider.flatMap { quotes[ProviderSymbol(provider: $0, symbol: symbol)] },
                    lastAlert: record?.alert, lastAlertDeliveries: record?.deliveries.map(\.status) ?? []))
            }
        }
        return .read(statuses)
    }

    /// The sink names of the configuration at `configPath`, read without rules or secrets (for
    /// shell completion); empty when it cannot be read.
    public static func sinkNames(configPath: String) -> [String] {
        guard let location = ConfigurationLoader.stateLocation(mainFile: configPath).location else { return [] }
        return location.sinkIdentities.keys.sorted()
    }
}
