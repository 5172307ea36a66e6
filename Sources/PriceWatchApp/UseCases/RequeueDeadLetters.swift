import PriceWatchConfig
import PriceWatchCore
import PriceWatchStore

/// `pricewatch requeue`: puts the dead letters an operator selects back in the outbox, due now,
/// keeping their notification ids. Never creates a state database.
public enum RequeueDeadLetters {
    /// What re-queueing did.
    public enum Outcome: Sendable {
        /// The main file could not give the state's location; its diagnostics say why.
        case configurationFailed
        /// The database could not be read or written: the error, for one line.
        case failed(String)
        /// The re-queued deliveries as they were (dead), oldest first, and each configured
        /// sink's `kind/name` by name.
        case requeued([Delivery], sinkIdentities: [String: String])
    }

    /// Re-queues the dead deliveries of `alertID` and/or `sink` and/or of notifications at or
    /// after `since` (all dead deliveries when every one is nil), at `now`.
    public static func run(configPath: String, alertID: String?, sink: String?, since: Timestamp?, now: Timestamp,
                           report: ([Diagnostic]) -> Void) async -> Outcome {
        let (location, diagnostics) = ConfigurationLoader.stateLocation(mainFile: configPath, schemas: AdapterCatalog.schemas)
        report(diagnostics)
        guard let location else { return .configurationFailed }
        do {
            // The file must exist: re-queueing never creates a state database.
            _ = try SQLiteAlertStore.openReadOnly(path: location.statePath).close()
            let store = try SQLiteAlertStore.open(path: location.statePath)
            let selection = DeadLetterSelection(alertID: alertID, sink: sink, since: since)
            let requeued = try await store.requeueDeadLetters(selection, now: now)
            try store.close()
            return .requeued(requeued, sinkIdentities: location.sinkIdentities)
        } catch {
            return .failed("\(error)")
        }
    }
}
