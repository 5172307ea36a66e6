import ArgumentParser
import FoundationEssentials
import PriceWatchApp
import PriceWatchCore
import PriceWatchPresentation

/// `pricewatch alerts [--since DURATION] [--rule ID] [--symbol SYMBOL] [--status STATUS]
/// [--format text|json|csv]`: the alert log with the state of each delivery, read from the
/// state database while the daemon may be running.
struct Alerts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alerts",
        abstract: "List the alert log with each delivery's state.",
        discussion: """
            Reads the state database named by the main file (its `state` key only: no rule \
            file and no secret is read), opened read-only, so it works while the daemon runs. \
            Each alert shows each delivery: delivered (when), pending (next attempt, attempts, \
            last error) or dead (the last error). Alerts are in firing order; --since filters by \
            quote time, --rule and --symbol by the alert's, --status keeps alerts with a delivery \
            in that state and lists only those deliveries. When nothing matches, the text form \
            says so ('no alerts since TIME').
            """)

    @OptionGroup var config: ConfigOption

    @Option(help: ArgumentHelp("Only alerts whose quote time is within this duration before now (30s, 5m, 1h30m, 7d).",
                               valueName: "duration"))
    var since: String?

    @Option(help: ArgumentHelp("Only alerts of this rule id.", valueName: "id"))
    var rule: String?

    @Option(help: ArgumentHelp("Only alerts of this symbol.", valueName: "symbol"))
    var symbol: String?

    @Option(help: "Only alerts with a delivery in this state (pending, delivered, dead, silenced), and only those deliveries.")
    var status: Delivery.Status?

    @Option(help: "Output format: text, json for JSON Lines (one object per alert with a deliveries array), or csv (one row per delivery, with a header).")
    var format: AlertsFormat = .text

    @OptionGroup var timeZone: TimeZoneOption

    func validate() throws {
        try timeZone.refuseMarket("alerts")
        if let since {
            do {
                _ = try RuleDuration(parsing: since)
            } catch {
                throw ValidationError("--since: \(error.description)")
            }
        }
    }

    func run() async throws {
        // validate() has parsed --since already.
        let cutoff = since.flatMap { try? RuleDuration(parsing: $0) }.map { Self.now().subtracting($0) }
        let log: ReadAlertLog.Log
        switch await ReadAlertLog.read(configPath: config.path,
                                       query: AlertQuery(since: cutoff, rule: rule, symbol: symbol, status: status),
                                       report: StandardOutput.report) {
        case .configurationFailed:
            throw ExitCode(1)
        case .failed(let error):
            throw StandardOutput.failure("error: \(error)")
        case .read(let read):
            log = read
        }
        var output = StandardOutput.output()
        let records = log.records
        if format == .csv { output.line(AlertLogCSV.header) }
        if records.isEmpty && format == .text {
            output.line(AlertsFormat.nothingMatched(since: cutoff, rule: rule, symbol: symbol, status: status))
        }
        for record in records {
            switch format {
            case .text:
                output.line("\(AlertRendering.textLine(record.alert, zone: timeZone.zone)) [\(record.alert.id)]")
                for delivery in record.deliveries {
                    output.line("  \(log.sinkIdentities[delivery.sink] ?? delivery.sink): \(Self.state(of: delivery, zone: timeZone.zone))")
                }
            case .json:
                output.line(Self.jsonLine(record, identities: log.sinkIdentities))
            case .csv:
                for row in AlertLogCSV.rows(record, identities: log.sinkIdentities) { output.line(row) }
            }
        }
        output.flush()
    }

    static func now() -> Timestamp {
        Timestamp(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// `delivered 2024-10-02T14:31:01Z (1 attempt)`, `pending: next attempt
    /// 2024-10-02T14:35:00Z (3 attempts, last error: HTTP 503)`, `dead (5 attempts): HTTP 404`.
    static func state(of delivery: Delivery, zone: TimeZone? = nil) -> String {
        let attempts = delivery.attempts == 1 ? "1 attempt" : "\(delivery.attempts) attempts"
        switch delivery.status {
        case .delivered:
            return "delivered \(delivery.deliveredAt.map { LocalTimeText.stamp($0, zone: zone) } ?? "(time unknown)") (\(attempts))"
        case .pending:
            let next = delivery.nextAttemptAt.map { LocalTimeText.stamp($0, zone: zone) } ?? "now"
            let error = delivery.lastError.map { ", last error: \($0)" } ?? ""
            return "pending: next attempt \(next) (\(attempts)\(error))"
        case .dead:
            return "dead (\(attempts)): \(delivery.lastError ?? "no error recorded")"
        case .silenced:
            return delivery.lastError ?? "silenced"
        }
    }

    /// The alert's fields of `backtest --format json`, then `deliveries`: one object per sink
    /// with `sink`, `identity` (`kind/name`, null when the sink is no longer configured),
    /// `status`, `attempts`, `queued_at`, `next_attempt_at`, `delivered_at` and `last_error`
    /// (null when not applicable).
    static func jsonLine(_ record: AlertRecord, identities: [String: String]) -> String {
        var json = JSONWriter()
        AlertRendering.writeFields(of: record.alert, to: &json)
        json.objects("deliveries", record.deliveries.map { delivery in
            var object = JSONWriter()
            object.string("sink", delivery.sink)
            object.string("identity", identities[delivery.sink])
            object.string("status", delivery.status.rawValue)
            object.integer("attempts", delivery.attempts)
            object.time("queued_at", delivery.createdAt)
            object.time("next_attempt_at", delivery.status == .pending ? delivery.nextAttemptAt : nil)
            object.time("delivered_at", delivery.deliveredAt)
            object.string("last_error", delivery.lastError)
            return object.result
        })
        return json.result
    }
}

