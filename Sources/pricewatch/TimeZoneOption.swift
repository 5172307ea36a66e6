import ArgumentParser
import FoundationEssentials
import PriceWatchCore

/// `--tz ZONE`: the time zone text output prints times in. Without it, times stay RFC 3339 in
/// UTC, as these commands always printed them (so `TZ` is not read: scripts keep their output).
/// Machine formats (JSON, CSV) are always UTC.
struct TimeZoneOption: ParsableArguments {
    @Option(name: .customLong("tz"),
            help: ArgumentHelp("Print times in text output in this IANA time zone (Europe/London); `quote` also takes 'market', each quote's market zone. Default: RFC 3339 in UTC.",
                               valueName: "zone"),
            completion: .custom { words, _, _ in NameCompletion.timeZones(words: words) })
    var name: String?

    /// Whether `--tz market` was given.
    var isMarket: Bool { name == "market" }

    /// The zone given, nil for none or `market`.
    var zone: TimeZone? {
        guard let name, name != "market" else { return nil }
        return TimeZone(identifier: name)
    }

    func validate() throws {
        if let name, name != "market", TimeZone(identifier: name) == nil {
            throw ValidationError("--tz: expected an IANA time zone such as 'Europe/London' or 'UTC', found '\(name)'")
        }
    }

    /// For commands whose rows belong to no one market.
    func refuseMarket(_ command: String) throws {
        if isMarket {
            throw ValidationError("--tz market: \(command) prints no per-symbol market times; give a zone such as 'America/New_York'")
        }
    }
}
