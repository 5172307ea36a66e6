import PriceWatchConfig
import PriceWatchCore
import PriceWatchStore

/// `pricewatch check --state`: whether the state database named by the main file is usable,
/// inspected read-only (it never creates or repairs the file).
public enum InspectState {
    /// What the inspection found, with the database's path.
    public enum Outcome: Sendable {
        /// The main file could not give the state's location; its diagnostics say why.
        case configurationFailed
        /// No file yet: the daemon creates it at its first start.
        case absent(path: String)
        /// Usable, with what it holds.
        case usable(path: String, alerts: Int, pendingDeliveries: Int, deadDeliveries: Int, quotes: Int)
        /// Damaged, emptied or from a newer version: the error, for one line.
        case unusable(String)
    }

    /// Inspects the state of the configuration at `configPath`; `report` gets the main file's
    /// diagnostics first.
    public static func run(configPath: String, report: ([Diagnostic]) -> Void) -> Outcome {
        let (location, diagnostics) = ConfigurationLoader.stateLocation(mainFile: configPath, schemas: AdapterCatalog.schemas)
        report(diagnostics)
        guard let location else { return .configurationFailed }
        let path = location.statePath
        switch StateInspection.inspect(path: path) {
        case .absent:
            return .absent(path: path)
        case .usable(let counts):
            return .usable(path: path, alerts: counts.alerts, pendingDeliveries: counts.pendingDeliveries,
                           deadDeliveries: counts.deadDeliveries, quotes: counts.quotes)
        case .unusable(let error):
            return .unusable("\(error)")
        }
    }
}
