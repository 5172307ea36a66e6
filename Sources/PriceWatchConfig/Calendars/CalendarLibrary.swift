import Foundation
import PriceWatchCore

/// Finds and reads the trading calendars: the shipped directory (one `MARKET.toml` per
/// market) and the operator's `calendars.d/` beside the configuration.
///
/// The shipped directory is, in order: `$PRICEWATCH_CALENDARS` when set (tests, the demo, a
/// run from the source tree), then `/usr/share/pricewatch/calendars` (the Debian package,
/// `make install PREFIX=/usr`), then `/usr/local/share/pricewatch/calendars` (`make install`).
/// None found is a warning and every market is then always open; a bad file is an error for
/// that file only, and its market is then always open too.
public enum CalendarLibrary {
    public static let environmentVariable = "PRICEWATCH_CALENDARS"
    public static let installedDirectories = ["/usr/share/pricewatch/calendars", "/usr/local/share/pricewatch/calendars"]

    /// The shipped calendars' directory by the lookup order, nil when none exists.
    public static func shippedDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let configured = environment[environmentVariable], !configured.isEmpty {
            return configured
        }
        return installedDirectories.first { isDirectory($0) }
    }

    /// The overrides directory of a configuration directory: `/etc/pricewatch/calendars.d`.
    public static func overridesDirectory(configurationDirectory: String) -> String {
        configurationDirectory.hasSuffix("/") ? configurationDirectory + "calendars.d" : configurationDirectory + "/calendars.d"
    }

    /// The calendars of the shipped directory with the overrides applied, and every problem.
    public static func load(shipped: String?, overrides: String?) -> (calendars: MarketCalendars, diagnostics: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        var calendars: [MarketIdentifier: TradingCalendar] = [:]
        if let shipped, isDirectory(shipped) {
            for file in readFiles(in: shipped, diagnostics: &diagnostics) {
                if calendars[file.market] != nil {
                    diagnostics.append(.error("calendar \(file.market) is defined twice", path: file.path))
                    continue
                }
                switch file.standalone() {
                case .success(let calendar): calendars[file.market] = calendar
                case .failure(let diagnostic): diagnostics.append(diagnostic)
                }
            }
        } else {
            let looked = shipped.map { [$0] } ?? ["$\(environmentVariable)"] + installedDirectories
            diagnostics.append(.warning("no trading calendars found (looked in \(looked.joined(separator: ", "))); every market is treated as always open",
                                        path: shipped ?? installedDirectories[0]))
        }
        if let overrides, isDirectory(overrides) {
            for file in readFiles(in: overrides, diagnostics: &diagnostics) {
                let result: Result<TradingCalendar, Diagnostic>
                if !file.replaces, let base = calendars[file.market] {
                    result = file.extending(base)
                } else {
                    result = file.standalone()
                }
                switch result {
                case .success(let calendar): calendars[file.market] = calendar
                case .failure(let diagnostic): diagnostics.append(diagnostic)
                }
            }
        }
        return (MarketCalendars(calendars.values.sorted { $0.market < $1.market }), diagnostics)
    }

    /// What `pricewatch check` reports for the operator's calendar files: the diagnostics of
    /// the files of `overrides` exactly as ``load(shipped:overrides:)`` gives them to `market`
    /// and the daemon (the same reader, and the same checks over the shipped calendars: a
    /// `replace = true` file or a new market must be whole), without those about the shipped
    /// directory.
    public static func check(shipped: String?, overrides: String) -> [Diagnostic] {
        let (_, diagnostics) = load(shipped: shipped, overrides: overrides)
        let prefix = overrides.hasSuffix("/") ? overrides : overrides + "/"
        return diagnostics.filter { $0.path == overrides || $0.path.hasPrefix(prefix) }
    }

    private static func readFiles(in directory: String, diagnostics: inout [Diagnostic]) -> [CalendarFile] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            diagnostics.append(.error("cannot read the calendar directory", path: directory))
            return []
        }
        var files: [CalendarFile] = []
        for name in names.sorted() where name.hasSuffix(".toml") {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            guard let data = FileManager.default.contents(atPath: path), data.count <= 1 << 20 else {
                diagnostics.append(.error("cannot read the calendar file (missing, unreadable or over 1 MiB)", path: path))
                continue
            }
            guard let text = String(data: data, encoding: .utf8) else {
                diagnostics.append(.error("expected UTF-8 text", path: path))
                continue
            }
            let (file, found) = CalendarFileReader.read(text: text, path: path)
            diagnostics += found
            if let file { files.append(file) }
        }
        return files
    }

    private static func isDirectory(_ path: String) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && flag.boolValue
    }
}
