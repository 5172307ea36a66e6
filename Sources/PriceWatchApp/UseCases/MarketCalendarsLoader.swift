import Foundation
import PriceWatchConfig
import PriceWatchCore

/// Where the daemon and the commands get their `MarketHours`: the shipped calendars (found by
/// `CalendarLibrary`'s lookup order) with the operator's `calendars.d/` beside the main
/// configuration file applied.
public enum MarketCalendarsLoader {
    /// The calendars and every problem (a missing shipped directory is a warning; markets
    /// are then always open).
    public static func load(configPath: String, environment: [String: String]) -> (calendars: MarketCalendars, diagnostics: [Diagnostic]) {
        CalendarLibrary.load(shipped: CalendarLibrary.shippedDirectory(environment: environment),
                             overrides: overridesDirectory(configPath: configPath))
    }

    /// Where ``load(configPath:environment:)`` looks for calendars, for a message that none
    /// were found: the shipped directory (`$PRICEWATCH_CALENDARS` when set, else the installed
    /// places), then `calendars.d` beside the main file.
    public static func searchedDirectories(configPath: String, environment: [String: String]) -> [String] {
        let shipped = environment[CalendarLibrary.environmentVariable].flatMap { $0.isEmpty ? nil : [$0] }
            ?? CalendarLibrary.installedDirectories
        return shipped + [overridesDirectory(configPath: configPath)]
    }

    /// `calendars.d` in the main file's directory.
    public static func overridesDirectory(configPath: String) -> String {
        let directory: String
        if let slash = configPath.lastIndex(of: "/") {
            directory = slash == configPath.startIndex ? "/" : String(configPath[..<slash])
        } else {
            directory = "."
        }
        return CalendarLibrary.overridesDirectory(configurationDirectory: directory)
    }

    /// The diagnostics of the operator's calendar files, for `pricewatch check` (none when
    /// there is no `calendars.d`): the very diagnostics ``load(configPath:environment:)`` gives
    /// `market` and the daemon for them.
    public static func checkOverrides(configPath: String, environment: [String: String]) -> [Diagnostic] {
        let directory = overridesDirectory(configPath: configPath)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else { return [] }
        return CalendarLibrary.check(shipped: CalendarLibrary.shippedDirectory(environment: environment), overrides: directory)
    }
}
