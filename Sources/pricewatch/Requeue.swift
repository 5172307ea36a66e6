import ArgumentParser
import PriceWatchConfig
import PriceWatchCore
import PriceWatchStore

/// `pricewatch requeue (--alert ID | --sink NAME | --since DURATION | --all)`: puts dead letters
/// back in the outbox once their receiver is fixed.
struct Requeue: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
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

    @Option(help: ArgumentHelp("Only the dead deliveries to this sink (its name in the configuration).", valueName: "name"))
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
        let (location, diagnostics) = ConfigurationLoader.stateLocation(mainFile: config.path)
        StandardOutput.report(diagnostics)
        guard let location else { throw ExitCode(1) }
        let requeued: [Delivery]
        do {
            // The file must exist: re-queueing never creates a state database.
            _ = try SQLiteAlertStore.openReadOnly(path: location.statePath).close()
            let store = try SQLiteAlertStore.open(path: location.statePath)
            let now = Alerts.now()
            let selection = DeadLetterSelection(alertID: alert, sink: sink,
                                                since: try since.map { now.subtracting(try RuleDuration(parsing: $0)) })
            requeued = try await store.requeueDeadLetters(selection, now: now)
            try store.close()
        } catch {
            var errors = StandardOutput.error()
            errors.line("error: \(error)")
            errors.flush()
            throw ExitCode(1)
        }
        guard !requeued.isEmpty else {
            var errors = StandardOutput.error()
            errors.line("no dead delivery matches")
            errors.flush()
            throw ExitCode(1)
        }
        var output = StandardOutput.output()
        for delivery in requeued {
            let sink = location.sinkIdentities[delivery.sink] ?? delivery.sink
            output.line("re-queued \(delivery.alert.id) to \(sink) (\(AlertRendering.textLine(delivery.alert)))")
        }
        output.line("\(requeued.count) dead deliver\(requeued.count == 1 ? "y" : "ies") re-queued")
        output.flush()
    }
}
