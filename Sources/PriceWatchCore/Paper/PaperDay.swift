/// A calendar day in UTC, as days since 1970-01-01: the unit of a paper account's equity
/// history and of its return periods.
public struct PaperDay: Sendable, Hashable, Comparable, Strideable, CustomStringConvertible {
    public var daysSinceEpoch: Int64

    public init(daysSinceEpoch: Int64) { self.daysSinceEpoch = daysSinceEpoch }

    /// The UTC day of `instant`.
    public init(_ instant: Timestamp) {
        let ms = instant.milliseconds
        daysSinceEpoch = ms >= 0 ? ms / 86_400_000 : (ms - 86_399_999) / 86_400_000
    }

    /// The day of a civil date; nil when the date does not exist.
    public init?(year: Int, month: Int, day: Int) {
        guard let start = Timestamp(year: year, month: month, day: day) else { return nil }
        self.init(start)
    }

    public static func < (lhs: PaperDay, rhs: PaperDay) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }
    public func distance(to other: PaperDay) -> Int64 { other.daysSinceEpoch - daysSinceEpoch }
    public func advanced(by n: Int64) -> PaperDay { PaperDay(daysSinceEpoch: daysSinceEpoch + n) }

    /// The first instant after the day.
    public var end: Timestamp { Timestamp(milliseconds: (daysSinceEpoch + 1) * 86_400_000) }

    /// Year, month, day (proleptic Gregorian).
    public var civil: (year: Int, month: Int, day: Int) {
        // Howard Hinnant's civil_from_days.
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    /// Monday = 1 ... Sunday = 7 (ISO 8601).
    public var isoWeekday: Int {
        // 1970-01-01 was a Thursday (4).
        let mod = ((daysSinceEpoch % 7) + 7) % 7
        return Int((mod + 3) % 7) + 1
    }

    /// `2026-11-23`.
    public var description: String {
        let (year, month, day) = civil
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))"
    }
}
