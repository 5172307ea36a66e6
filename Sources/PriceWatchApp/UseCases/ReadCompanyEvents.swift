import PriceWatchConfig
import PriceWatchCore
import PriceWatchStore

/// `pricewatch events [SYMBOL...]`: the companies' calendars the daemon stored (read-only, so
/// it works while the daemon runs). Reads only the main file's `state` key.
public enum ReadCompanyEvents {
    /// What reading found.
    public enum Outcome: Sendable {
        /// The main file could not give the state's location; its diagnostics say why.
        case configurationFailed
        /// The database could not be read: the error, for one line.
        case failed(String)
        /// The events, by date (of `symbols` when given).
        case read([CompanyEvent])
    }

    public static func read(configPath: String, symbols: [String], report: ([Diagnostic]) -> Void) async -> Outcome {
        let (location, diagnostics) = ConfigurationLoader.stateLocation(mainFile: configPath, schemas: AdapterCatalog.schemas)
        report(diagnostics)
        guard let location else { return .configurationFailed }
        do {
            let store = try SQLiteAlertStore.openReadOnly(path: location.statePath)
            let events = try await store.companyEvents(of: symbols.isEmpty ? nil : symbols)
            try store.close()
            return .read(events)
        } catch {
            return .failed("\(error)")
        }
    }
}
