/// A calendar date without a time zone (`2018-12-05`), as trading calendars speak of days.
///
/// Stored as the number of days since 1970-01-01 in the proleptic Gregorian calendar, so dates
/// compare, hash and step by days exactly.
public struct CivilDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Days since 1970-01-01 (negative before).
    public let dayNumber: Int64

    public init(dayNumber: Int64) { self.dayNumber = dayNumber }

    /// The date, or nil when a field is out of range (`2023-02-29`).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...Timestamp.daysIn(month: month, year: year)).contains(day) else { return nil }
        dayNumber = Timestamp.daysFromCivil(year: year, month: month, day: day)
    }

    /// Parses `YYYY-MM-DD`; nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The UTC date of an instant.
    public init(utcDateOf instant: Timestamp) {
        let seconds = instant.seconds
        dayNumber = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    }

    public var year: Int { Timestamp.civilFromDays(dayNumber).year }
    public var month: Int { Timestamp.civilFromDays(dayNumber).month }
    public var day: Int { Timestamp.civilFromDays(dayNumber).day }

    /// The day of the week.
    public var weekday: Weekday {
        Weekday(daysSinceEpoch: dayNumber)
    }

    public func adding(days: Int) -> CivilDate { CivilDate(dayNumber: dayNumber + Int64(days)) }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool { lhs.dayNumber < rhs.dayNumber }

    /// `2018-12-05`.
    public var description: String {
        let (year, month, day) = Timestamp.civilFromDays(dayNumber)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }
}
