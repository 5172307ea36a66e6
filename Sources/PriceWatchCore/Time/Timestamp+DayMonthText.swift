extension Timestamp {
    /// The English month abbreviations, January first: the dashboard's times, chart axes,
    /// HTTP and mail dates all spell months with these.
    public static let monthAbbreviations = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The time as a page shows it to a person, in UTC to the minute: `26 Nov 12:09 UTC`
    /// (`6 Nov 09:05 UTC`; the year only when it is not `currentYear`: `31 Dec 2025 23:59 UTC`).
    public func dayMonthText(currentYear: Int? = nil) -> String {
        let days = dayNumber
        let date = Self.civilFromDays(days)
        let minuteOfDay = (milliseconds - days * 86_400_000) / 60_000
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = currentYear == date.year ? "" : " \(date.year)"
        return "\(date.day) \(Self.monthAbbreviations[date.month - 1])\(year) \(two(minuteOfDay / 60)):\(two(minuteOfDay % 60)) UTC"
    }

    /// The UTC year of the time.
    public var year: Int {
        Self.civilFromDays(dayNumber).year
    }

    /// Days since 1970-01-01 (UTC), rounded down for times before it.
    private var dayNumber: Int64 {
        milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds + 1) / 86_400_000 - 1
    }
}
