import ArgumentParser
import FoundationEssentials
import PriceWatchApp
import PriceWatchCore
import PriceWatchPresentation

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

    @OptionGroup var timeZone: TimeZoneOption

    func validate() throws {
        try timeZone.refuseMarket("rules")
    }

    func run() async throws {
        let (serviceCredentials, environment) = credentials.resolve()
        defer { serviceCredentials.cleanUp() }
        let statuses: [RuleStatus]
        switch await ReadRuleStatus.read(configPath: config.path, environment: environment, now: Alerts.now(),
                                         report: StandardOutput.report) {
        case .configurationFailed:
            throw ExitCode(1)
        case .failed(let error):
            throw StandardOutput.failure("error: \(error)")
        case .read(let read):
            statuses = read
        }
        var output = StandardOutput.output()
        switch format {
        case .text:
            if statuses.isEmpty {
                var errors = StandardOutput.error()
                errors.line("\(config.path): no rules")
                errors.flush()
            } else {
                for line in TextTable.render(header: RuleStatus.header, rows: statuses.map { $0.row(zone: timeZone.zone) }, rightAligned: [3]) { output.line(line) }
            }
        case .json:
            for status in statuses { output.line(status.jsonLine) }
        }
        output.flush()
    }
}
