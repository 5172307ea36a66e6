import FoundationEssentials

/// When a scheduled job is due: a time of the hour, of the day or of the week, on the wall
/// clock of an IANA time zone (`hourly`, `daily 08:00 Europe/Berlin`,
/// `weekly mon 07:30 America/New_York`).
///
/// Pure: the time zone's rules come from the system's tzdata through Foundation's `TimeZone`,
/// but no clock is read; ``nextDue(after:)`` is given the instant to count from.
///
/// Daylight-saving changes:
/// - a daily or weekly time that does not exist that day (it falls in the hour skipped when
///   clocks go forward) is due once, at the first minute that exists after it (`02:30` on
///   the day Berlin goes from 02:00 to 03:00 is due at 03:00);
/// - a daily or weekly time that occurs twice (in the hour repeated when clocks go back) is
///   due once, at its first occurrence;
/// - an hourly schedule is due in every elapsed hour at the given minute of the wall clock:
///   a day when clocks go back has 25 runs, a day when they go forward 23; no hour is run
///   twice or skipped.
public struct CalendarSchedule: Sendable, Hashable, CustomStringConvertible {
    /// How often, and at which wall-clock time.
    public enum Cadence: Sendable, Hashable {
        /// Every hour at `minute` (0-59).
        case hourly(minute: Int)
        /// Every day at `hour`:`minute`.
        case daily(hour: Int, minute: Int)
        /// Every week on `weekday` at `hour`:`minute`.
        case weekly(weekday: Weekday, hour: Int, minute: Int)
    }

    public let cadence: Cadence
    public let timeZone: TimeZone

    /// The zone of a schedule that names none.
    public static let utc = TimeZone(identifier: "UTC") ?? .gmt

    /// A schedule in `timeZone` (UTC when not given). Out-of-range hours and minutes are
    /// clamped into their range; ``init(parsing:)`` refuses them instead.
    public init(_ cadence: Cadence, timeZone: TimeZone = CalendarSchedule.utc) {
        switch cadence {
        case .hourly(let minute):
            self.cadence = .hourly(minute: min(max(minute, 0), 59))
        case .daily(let hour, let minute):
            self.cadence = .daily(hour: min(max(hour, 0), 23), minute: min(max(minute, 0), 59))
        case .weekly(let weekday, let hour, let minute):
            self.cadence = .weekly(weekday: weekday, hour: min(max(hour, 0), 23), minute: min(max(minute, 0), 59))
        }
        self.timeZone = timeZone
    }

    /// The schedule in the syntax ``init(parsing:)`` reads: `hourly :15 UTC`,
    /// `daily 08:00 Europe/Berlin`, `weekly mon 07:30 America/New_York`.
    public var description: String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        // Foundation names UTC "GMT"; the schedule says what the operator writes.
        let zone = timeZone.identifier == "GMT" ? "UTC" : timeZone.identifier
        switch cadence {
        case .hourly(let minute): return "hourly :\(two(minute)) \(zone)"
        case .daily(let hour, let minute): return "daily \(two(hour)):\(two(minute)) \(zone)"
        case .weekly(let weekday, let hour, let minute): return "weekly \(weekday.name) \(two(hour)):\(two(minute)) \(zone)"
        }
    }

    /// The first due time strictly after `instant`, on a whole minute.
    public func nextDue(after instant: Timestamp) -> Timestamp {
        let after = instant.seconds
        switch cadence {
        case .hourly(let minute):
            // Whole minutes after `after`, until the wall clock shows `minute`: at most an hour
            // and a bit, even across an offset change.
            var candidate = Self.floorDiv(after, 60) * 60 + 60
            for _ in 0..<(3 * 60) {
                if Self.floorMod(localWall(candidate), 3600) / 60 == Int64(minute) { return Timestamp(seconds: candidate) }
                candidate += 60
            }
            return Timestamp(seconds: candidate)
        case .daily(let hour, let minute):
            return nextDaily(after: after, weekday: nil, hour: hour, minute: minute)
        case .weekly(let weekday, let hour, let minute):
            return nextDaily(after: after, weekday: weekday, hour: hour, minute: minute)
        }
    }

    /// The latest due time at or before `instant`, if there is one within the last eight days
    /// (every cadence is due at least once a week, so there always is).
    public func lastDue(atOrBefore instant: Timestamp) -> Timestamp? {
        var due = nextDue(after: Timestamp(seconds: instant.seconds - 8 * 86_400))
        guard due <= instant else { return nil }
        while true {
            let next = nextDue(after: due)
            if next > instant { return due }
            due = next
        }
    }

    private func nextDaily(after: Int64, weekday: Weekday?, hour: Int, minute: Int) -> Timestamp {
        let today = Self.floorDiv(localWall(after), 86_400)
        let timeOfDay = Int64(hour * 3600 + minute * 60)
        for day in (today - 1)...(today + 8) {
            if let weekday, Weekday(daysSinceEpoch: day) != weekday { continue }
            let due = instant(ofWall: day * 86_400 + timeOfDay)
            if due > after { return Timestamp(seconds: due) }
        }
        // Unreachable: some day in the range is the weekday and lies ahead.
        return Timestamp(seconds: after + 7 * 86_400)
    }

    /// The instant, in seconds, at which the wall clock first shows `wall` (seconds since the
    /// epoch, reading local time as if it were UTC); in a gap, the instant the gap ends.
    func instant(ofWall wall: Int64) -> Int64 {
        let offsets = Set([offset(wall - 86_400), offset(wall), offset(wall + 86_400)])
        if let first = offsets.map({ wall - $0 }).filter({ localWall($0) == wall }).min() { return first }
        // `wall` does not exist: clocks jumped over it. Find the first instant whose wall time
        // is past it (the end of the gap), then round up to a whole minute.
        guard let smallest = offsets.min(), let largest = offsets.max() else { return wall }
        var low = wall - largest   // shows a wall time before `wall`
        var high = wall - smallest // shows a wall time after `wall`
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if localWall(middle) >= wall { high = middle } else { low = middle }
        }
        return Self.floorDiv(high + 59, 60) * 60
    }

    /// The zone's offset from UTC at `instant` (seconds), from tzdata.
    func offset(_ instant: Int64) -> Int64 {
        Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))))
    }

    /// The wall-clock time at `instant`, as seconds since the epoch read as UTC.
    func localWall(_ instant: Int64) -> Int64 { instant + offset(instant) }

    static func floorDiv(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }

    static func floorMod(_ value: Int64, _ divisor: Int64) -> Int64 {
        value - floorDiv(value, divisor) * divisor
    }
}
