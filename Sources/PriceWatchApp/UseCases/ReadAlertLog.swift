import PriceWatchConfig
import PriceWatchCore
import PriceWatchStore

/// `pricewatch alerts`: the alert log with each delivery's state, read from the state
/// database (opened read-only, so it works while the daemon runs). Reads only the main file's
/// `state` key and its sinks' kinds: no rule file and no secret.
public enum ReadAlertLog {
    /// The alerts, in firing order, and each configured sink's `kind/name` by name.
    public struct Log: Sendable {
        public var records: [AlertRecord]
        public var sinkIdentities: [String: String]
    }

    /// What reading found.
    public enum Outcome: Sendable {
        /// The main file could not give the state's location; its diagnostics say why.
        case configurationFailed
        /// The database could not be read: the error, for one line.
        case failed(String)
        case read(Log)
    }

    /// Reads the alerts `query` selects (quote time, rule, symbol, delivery state; filtered by
    /// the database). `report` gets the main file's diagnostics first.
    public static func read(configPath: String, query: AlertQuery, report: ([Diagnostic]) -> Void) async -> Outcome {
        let (location, diagnostics) = ConfigurationLoader.stateLocation(mainFile: configPath, schemas: AdapterCatalog.schemas)
        report(diagnostics)
        guard let location else { return .configurationFailed }
        do {
            let store = try SQLiteAlertStore.openReadOnly(path: location.statePath)
            let records = try await store.alerts(matching: query)
            try store.close()
            return .read(Log(records: records, sinkIdentities: location.sinkIdentities))
        } catch {
            return .failed("\(error)")
        }
    }
}
