import PriceWatchConfig
import PriceWatchStore

/// The `--state` part of `pricewatch check`: one line about the state database named by the
/// main file, on standard output when it is usable (or not created yet), else on standard error.
enum StateCheck {
    /// Prints the verdict; returns whether the state is usable (or absent).
    static func report(mainFile: String) -> Bool {
        let (location, diagnostics) = ConfigurationLoader.stateLocation(mainFile: mainFile)
        guard let location else {
            StandardOutput.report(diagnostics)
            return false
        }
        let path = location.statePath
        switch StateInspection.inspect(path: path) {
        case .absent:
            var output = StandardOutput.output()
            output.line("state database \(path): not created yet (the daemon creates it at its first start)")
            output.flush()
            return true
        case .usable(let counts):
            var output = StandardOutput.output()
            output.line("state database \(path): ok: \(counts.alerts) alert(s), \(counts.pendingDeliveries) pending, "
                        + "\(counts.deadDeliveries) dead deliveries, \(counts.quotes) quote(s)")
            output.flush()
            return true
        case .unusable(let error):
            var errors = StandardOutput.error()
            errors.line("error: \(error)")
            errors.flush()
            return false
        }
    }
}
