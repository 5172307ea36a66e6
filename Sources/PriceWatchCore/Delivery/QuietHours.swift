import FoundationEssentials

/// A sink's quiet hours: a daily window of the wall clock of one time zone (`22:00-07:00` in
/// `Europe/Berlin`) during which its alerts are held, to be released when the window ends.
///
/// Pure: the zone's rules come from tzdata through Foundation's `TimeZone`; no clock is read.
/// A window whose end is not after its start (`22:00-07:00`) runs over midnight. Across a
/// daylight-saving change the window follows the wall clock, so the night clocks go forward a
/// `22:00-07:00` window lasts 8 hours, the night they go back 10; a start or end that falls in
/// the skipped hour means the first minute after the jump, one that occurs twice its first
/// occurrence (as for ``CalendarSchedule``).
public struct QuietHours: Sendable, Hashable, CustomStringConvertible {
    /// Minutes after local midnight, 0..<1440.
    public let startMinute: Int
    public let endMinute: Int
    public let timeZone: TimeZone

    /// Why a window could not be read; says what was expected and what was found.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Reads `HH:MM-HH:MM` (24-hour clock; start and end must differ).
    public init(parsing text: String, timeZone: TimeZone) throws(ParseError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        func minutes(_ part: Substring) -> Int? {
            guard let (hour, minute, second) = SilenceEnd.timeOfDay(String(part)), second == 0, part.count == 5 else { return nil }
            return hour * 60 + minute
        }
        guard parts.count == 2, let start = minutes(parts[0]), let end = minutes(parts[1]) else {
            throw ParseError(description: "expected quiet hours such as \"22:00-07:00\" (HH:MM-HH:MM), found \"\(text)\"")
        }
        guard start != end else {
            throw ParseError(description: "quiet hours \"\(text)\" start and end at the same time: give a window such as \"22:00-07:00\"")
        }
        self.startMinute = start
        self.endMinute = end
        self.timeZone = timeZone
    }

    /// What a held delivery's last error says: `held for quiet hours until 2024-10-03T05:00:00Z`.
    public static func heldMessage(until: Timestamp) -> String {
        "held for quiet hours until \(until.rfc3339)"
    }

    /// `22:00-07:00 Europe/Berlin`.
    public var description: String {
        func clock(_ minutes: Int) -> String {
            let hour = minutes / 60, minute = minutes % 60
            return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
        }
        // Foundation names UTC "GMT"; the window says what the operator writes.
        return "\(clock(startMinute))-\(clock(endMinute)) \(timeZone.identifier == "GMT" ? "UTC" : timeZone.identifier)"
    }

    /// When the quiet period that `instant` falls in ends; nil when `instant` is not in quiet
    /// hours (the start is in the window, the end is not).
    public func release(at instant: Timestamp) -> Timestamp? {
        let schedule = CalendarSchedule(.daily(hour: 0, minute: 0), timeZone: timeZone)
        let seconds = CalendarSchedule.floorDiv(instant.milliseconds, 1000)
        let today = CalendarSchedule.floorDiv(schedule.localWall(seconds), 86_400)
        let overnight = endMinute < startMinute
        // The window that began yesterday may still run (overnight), then today's.
        for day in [today - 1, today] {
            let start = schedule.instant(ofWall: day * 86_400 + Int64(startMinute) * 60)
            let end = schedule.instant(ofWall: (day + (overnight ? 1 : 0)) * 86_400 + Int64(endMinute) * 60)
            if start * 1000 <= instant.milliseconds && instant.milliseconds < end * 1000 {
                return Timestamp(seconds: end)
            }
        }
        return nil
    }
}
