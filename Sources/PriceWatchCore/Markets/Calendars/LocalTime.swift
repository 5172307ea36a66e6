/// A wall-clock time of day in a market's zone, `09:30`; `24:00` is the end of the day.
public struct LocalTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Minutes after midnight, 0 ... 1440.
    public let minuteOfDay: Int

    public init?(hour: Int, minute: Int) {
        guard (0...24).contains(hour), (0...59).contains(minute), hour * 60 + minute <= 1440 else { return nil }
        minuteOfDay = hour * 60 + minute
    }

    /// Parses `HH:MM` (`24:00` allowed); nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let hour = Int(parts[0]), let minute = Int(parts[1]) else { return nil }
        self.init(hour: hour, minute: minute)
    }

    public static func < (lhs: LocalTime, rhs: LocalTime) -> Bool { lhs.minuteOfDay < rhs.minuteOfDay }

    public var description: String {
        let hour = minuteOfDay / 60, minute = minuteOfDay % 60
        return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }
}
