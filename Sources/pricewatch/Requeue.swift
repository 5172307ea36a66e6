import ArgumentParser
import PriceWatchApp
import PriceWatchCore
import PriceWatchPresentation

/// `pricewatch requeue (--alert ID | --sink NAME | --since DURATION | --all)`: puts dead letters
/// back in the outbox once their receiver is fixed.
struct Requeue: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "requeue",
        abstract: "Put dead-lettered deliveries back in the outbox.",
        discussion: """
            Selects dead deliveries (see `pricewatch alerts --status dead`) by alert id, by sink, \
            by quote time, or all of them (the conditions given must all hold), and makes them \
            pending again, due now, keeping their alert id (receivers deduplicate on it), with no \
            attempt counted and `max_age` counted from now. A running daemon sends them within \
            seconds; otherwise they go at its next start. Prints one line per re-queued delivery; \
            exits 1 when no dead delivery matches.
            """)

    @OptionGroup var config: ConfigOption

    @Option(help: ArgumentHelp("Only the dead deliveries of this alert (its id as `pricewatch alerts` shows it).", valueName: "id"))
    var alert: String?

    @Option(help: ArgumentHelp("Only the dead deliveries to this sink (its name in the configuration).", valueName: "name"),
            completion: .custom { words, _, _ in NameCompletion.sinks(words: words) })
    var sink: String?

    @Option(help: ArgumentHelp("Only alerts whose quote time is within this duration before now (30s, 5m, 1h30m, 7d).",
                               valueName: "duration"))
    var since: String?

    @Flag(help: "Every dead delivery (required when no other selection is given).")
    var all = false

    func validate() throws {
        if let since {
            do {
                _ = try RuleDuration(parsing: since)
            } catch {
                throw ValidationError("--since: \(error.description)")
            }
        }
        if alert == nil, sink == nil, since == nil, !all {
            throw ValidationError("say which dead deliveries to re-queue: --alert ID, --sink NAME, --since DURATION or --all")
        }
        if all, alert != nil || sink != nil || since != nil {
            throw ValidationError("--all selects every dead delivery: give it alone")
        }
    }

    func run() async throws {
        let now = Alerts.now()
        // validate() has parsed --since already.
        let cutoff = since.flatMap { try? RuleDuration(parsing: $0) }.map { now.subtracting($0) }
        let requeued: [Delivery]
        let identities: [String: String]
        switch await RequeueDeadLetters.run(configPath: config.path, alertID: alert, sink: sink, since: cutoff, now: now,
                                            report: StandardOutput.report) {
        case .configurationFailed:
            throw ExitCode(1)
        case .failed(let error):
            throw StandardOutput.failure("error: \(error)")
        case .requeued(let deliveries, let sinkIdentities):
            requeued = deliveries
            identities = sinkIdentities
        }
        guard !requeued.isEmpty else {
            throw StandardOutput.failure("no dead delivery matches")
        }
        var output = StandardOutput.output()
        for delivery in requeued {
            let sink = identities[delivery.sink] ?? delivery.sink
            let what = delivery.notification.alert.map { AlertRendering.textLine($0) } ?? delivery.notification.summary
            output.line("re-queued \(delivery.notification.id) to \(sink) (\(what))")
        }
        output.line("\(requeued.count) dead deliver\(requeued.count == 1 ? "y" : "ies") re-queued")
        output.flush()
    }
}
