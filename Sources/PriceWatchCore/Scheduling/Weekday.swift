/// A day of the week, Monday first (ISO 8601), as a ``CalendarSchedule`` names it.
public enum Weekday: Int, Sendable, Hashable, CaseIterable {
    case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

    /// The three-letter name a schedule uses: `mon` … `sun`.
    public var name: String {
        switch self {
        case .monday: "mon"
        case .tuesday: "tue"
        case .wednesday: "wed"
        case .thursday: "thu"
        case .friday: "fri"
        case .saturday: "sat"
        case .sunday: "sun"
        }
    }

    /// The full English name, also accepted by the parser: `monday` … `sunday`.
    public var fullName: String {
        switch self {
        case .monday: "monday"
        case .tuesday: "tuesday"
        case .wednesday: "wednesday"
        case .thursday: "thursday"
        case .friday: "friday"
        case .saturday: "saturday"
        case .sunday: "sunday"
        }
    }

    /// The weekday of a day counted from 1970-01-01 (a Thursday).
    init(daysSinceEpoch days: Int64) {
        let index = CalendarSchedule.floorMod(days + 3, 7)   // 0 = Monday
        self = Weekday(rawValue: Int(index) + 1) ?? .monday
    }
}
