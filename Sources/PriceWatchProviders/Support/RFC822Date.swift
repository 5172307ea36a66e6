import PriceWatchCore

/// The date of RSS 2.0's `<pubDate>`: RFC 822 as updated by RFC 1123, with a four-digit year
/// (`Wed, 26 Nov 2026 14:03:00 +0000`, `Wed, 26 Nov 2026 14:03:00 GMT`).
///
/// Read: an optional day name with its comma, a day of one or two digits, an English month
/// abbreviation, a four-digit year, `HH:MM` or `HH:MM:SS`, and a zone: `+HHMM`/`-HHMM`, `GMT`,
/// `UT`, `UTC`, `Z`, or one of the North American zones RFC 822 names (`EST` … `PDT`). Any
/// other text, and any field out of range, is not a date.
public enum RFC822Date {
    /// The instant, or `nil` when `text` is not such a date.
    public static func parse(_ text: String) -> Timestamp? {
        var parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard parts.count == 5 || parts.count == 6 else { return nil }
        if parts.count == 6 {
            let name = parts.removeFirst()
            guard name.count == 4, name.hasSuffix(","), dayNames.contains(String(name.dropLast())) else { return nil }
        }
        guard (1...2).contains(parts[0].count), let day = number(parts[0]),
              let monthIndex = Timestamp.monthAbbreviations.firstIndex(of: String(parts[1])),
              parts[2].count == 4, let year = number(parts[2]),
              let offsetMinutes = zoneOffsetMinutes(parts[4])
        else { return nil }
        let clock = parts[3].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 2 || clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
              let hour = number(clock[0]), let minute = number(clock[1])
        else { return nil }
        var second = 0
        if clock.count == 3 {
            guard let value = number(clock[2]), value <= 60 else { return nil }
            // A leap second reads as :59, as the backtest CSV's times do.
            second = min(value, 59)
        }
        return Timestamp(year: year, month: monthIndex + 1, day: day, hour: hour, minute: minute, second: second,
                         offsetMinutes: offsetMinutes)
    }

    static let dayNames: Set<String> = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// RFC 822's named zones, in hours from UTC.
    static let namedZones: [String: Int] = [
        "GMT": 0, "UT": 0, "UTC": 0, "Z": 0,
        "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7,
    ]

    /// Minutes east of UTC for `+HHMM`, `-HHMM` or a named zone.
    static func zoneOffsetMinutes(_ zone: Substring) -> Int? {
        if let hours = namedZones[String(zone)] { return hours * 60 }
        guard zone.count == 5, let sign = zone.first, sign == "+" || sign == "-",
              let hours = number(zone.dropFirst().prefix(2)), let minutes = number(zone.suffix(2)),
              hours <= 23, minutes <= 59
        else { return nil }
        return (hours * 60 + minutes) * (sign == "-" ? -1 : 1)
    }

    /// ASCII digits only (`Int("+5")` would take the sign).
    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text)
    }
}
