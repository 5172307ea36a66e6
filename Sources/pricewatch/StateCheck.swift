import PriceWatchApp

/// The `--state` part of `pricewatch check`: one line about the state database named by the
/// main file, on standard output when it is usable (or not created yet), else on standard error.
enum StateCheck {
    /// Prints the verdict; returns whether the state is usable (or absent).
    static func report(mainFile: String) -> Bool {
        switch InspectState.run(configPath: mainFile, report: StandardOutput.report) {
        case .configurationFailed:
            return false
        case .absent(let path):
            var output = StandardOutput.output()
            output.line("state database \(path): not created yet (the daemon creates it at its first start)")
            output.flush()
            return true
        case .usable(let path, let alerts, let pending, let dead, let quotes):
            var output = StandardOutput.output()
            output.line("state database \(path): ok: \(alerts) alert(s), \(pending) pending, \(dead) dead deliveries, \(quotes) quote(s)")
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
