import Foundation

/// When a new silence ends: `--for DURATION` or `--until TIME` of `pricewatch silence add`.
///
/// `--until` reads, in order:
/// - a time of day, `HH:MM` or `HH:MM:SS`: its next occurrence after `now` in the operator's
///   zone (`23:00` at 22:00 is in an hour; at 23:30, tomorrow);
/// - a local date and time without offset, `YYYY-MM-DDTHH:MM[:SS]` or `YYYY-MM-DD HH:MM[:SS]`,
///   or a local date `YYYY-MM-DD` (its midnight), in the operator's zone;
/// - RFC 3339 with `Z` or an offset (`2024-10-02T22:00:00Z`, `2024-10-02T22:00:00+02:00`).
///
/// Daylight-saving changes, as the job schedules read them: a local time that does not exist
/// (clocks jumped over it) means the first minute after the jump; one that occurs twice means
/// its first occurrence. Pure: the zone's rules come from tzdata, `now` is given.
public enum SilenceEnd {
    /// Why an end could not be read: says what was expected and what was found.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// The end of a silence lasting `text` (a ``RuleDuration``: `30m`, `2h`, `1d`) from `now`.
    public static func after(_ text: String, now: Timestamp) throws(ParseError) -> Timestamp {
        do {
            return now.adding(try RuleDuration(parsing: text))
        } catch {
            throw ParseError(description: "--for: \(error.description)")
        }
    }

    /// The end given as `text` (see the type's documentation), which must lie after `now`.
    public static func until(_ text: String, now: Timestamp, timeZone: TimeZone) throws(ParseError) -> Timestamp {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let schedule = CalendarSchedule(.daily(hour: 0, minute: 0), timeZone: timeZone)
        let end: Timestamp
        if let (hour, minute, second) = timeOfDay(trimmed) {
            let wallNow = schedule.localWall(CalendarSchedule.floorDiv(now.milliseconds, 1000))
            let today = CalendarSchedule.floorDiv(wallNow, 86_400)
            let secondOfDay = Int64(hour * 3600 + minute * 60 + second)
            var candidate = Timestamp(seconds: schedule.instant(ofWall: today * 86_400 + secondOfDay))
            if candidate <= now {
                candidate = Timestamp(seconds: schedule.instant(ofWall: (today + 1) * 86_400 + secondOfDay))
            }
            end = candidate
        } else if let wall = localDateTime(trimmed) {
            end = Timestamp(seconds: schedule.instant(ofWall: wall))
        } else if hasOffset(trimmed), let parsed = Timestamp(parsing: trimmed) {
            end = parsed
        } else {
            throw ParseError(description: "--until: expected a time such as \"23:00\", \"2024-10-02 23:00\" (local, \(timeZone.identifier)) or \"2024-10-02T21:00:00Z\" (RFC 3339), found \"\(text)\"")
        }
        guard end > now else {
            throw ParseError(description: "--until: \(end.rfc3339) is not in the future (now is \(now.rfc3339))")
        }
        return end
    }

    /// `HH:MM` or `HH:MM:SS`, in range.
    static func timeOfDay(_ text: String) -> (Int, Int, Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
              parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let hour = Int(parts[0]), let minute = Int(parts[1]) else { return nil }
        let second = parts.count == 3 ? Int(parts[2]) ?? 99 : 0
        guard hour < 24, minute < 60, second < 60 else { return nil }
        return (hour, minute, second)
    }

    /// A local `YYYY-MM-DD[(T| )HH:MM[:SS]]` as seconds since the epoch read as UTC (a wall time).
    static func localDateTime(_ text: String) -> Int64? {
        let date = text.prefix(10)
        let rest = text.dropFirst(10)
        let dateParts = date.split(separator: "-", omittingEmptySubsequences: false)
        guard dateParts.count == 3, dateParts[0].count == 4, dateParts[1].count == 2, dateParts[2].count == 2,
              dateParts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let year = Int(dateParts[0]), let month = Int(dateParts[1]), let day = Int(dateParts[2]),
              (1...12).contains(month), (1...Timestamp.daysIn(month: month, year: year)).contains(day) else { return nil }
        var secondOfDay: Int64 = 0
        if !rest.isEmpty {
            guard rest.first == "T" || rest.first == " ", let (hour, minute, second) = timeOfDay(String(rest.dropFirst())) else {
                return nil
            }
            secondOfDay = Int64(hour * 3600 + minute * 60 + second)
        }
        return Timestamp.daysFromCivil(year: year, month: month, day: day) * 86_400 + secondOfDay
    }

    /// Whether RFC 3339 text ends with `Z` or a `±HH:MM` offset.
    static func hasOffset(_ text: String) -> Bool {
        guard text.contains("T") || text.contains("t") else { return false }
        if text.hasSuffix("Z") || text.hasSuffix("z") { return true }
        let tail = text.suffix(6)
        return tail.count == 6 && (tail.first == "+" || tail.first == "-") && tail.dropFirst(3).first == ":"
    }
}
