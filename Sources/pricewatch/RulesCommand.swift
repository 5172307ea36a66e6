import ArgumentParser
import Foundation
import PriceWatchConfig
import PriceWatchCore
import PriceWatchStore

/// `pricewatch rules [--format text|json]` (alias `status`): every rule and symbol with its
/// state, last price and last alert, from the configuration and the state database.
struct RulesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "Show every rule with its state, last price and last alert.",
        discussion: """
            One row per rule and symbol: STATE is armed, fired (waiting for the condition to \
            clear, or a 'once' rule that has fired), cooling down until TIME, expired or \
            disabled; LAST_PRICE and PRICE_TIME are the newest price the daemon stored for the \
            symbol from the rule's provider; LAST_ALERT is the time of the rule's newest alert \
            and DELIVERY the state of its deliveries. Reads the configuration (with its \
            secrets, as check does) and the state database read-only, so it works while the \
            daemon runs. Without a state database (the daemon never ran) every rule shows its \
            configured state and '-' for what the store would hold.
            """,
        aliases: ["status"])

    @OptionGroup var config: ConfigOption
    @OptionGroup var credentials: CredentialsDirectoryOption

    @Option(help: "Output format: text (an aligned table), or json for JSON Lines (one object per rule and symbol).")
    var format: OutputFormat = .text

    func run() async throws {
        let (serviceCredentials, environment) = credentials.resolve()
        defer { serviceCredentials.cleanUp() }
        let (loaded, diagnostics) = ConfigurationLoader.load(mainFile: config.path, environment: environment)
        guard let configuration = loaded, !diagnostics.containsErrors else {
            StandardOutput.report(diagnostics.filter { $0.severity == .error })
            throw ExitCode(1)
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
                var errors = StandardOutput.error()
                errors.line("error: \(error)")
                errors.flush()
                throw ExitCode(1)
            }
        }
        let now = Alerts.now()
        var statuses: [RuleStatus] = []
        for rule in configuration.rules {
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
        var output = StandardOutput.output()
        switch format {
        case .text:
            if statuses.isEmpty {
                var errors = StandardOutput.error()
                errors.line("\(config.path): no rules")
                errors.flush()
            } else {
                for line in TextTable.render(header: RuleStatus.header, rows: statuses.map(\.row), rightAligned: [3]) { output.line(line) }
            }
        case .json:
            for status in statuses { output.line(status.jsonLine) }
        }
        output.flush()
    }
}
