import FoundationEssentials
import PriceWatchCore

/// Instants written in a zone for people: `Mon 2024-12-02 09:30 -05:00`, or `09:30`.
enum ZonedTime {
    static func parts(_ instant: Timestamp, in zone: TimeZone) -> (date: CivilDate, minute: Int, offsetSeconds: Int) {
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant.seconds)))
        let local = instant.seconds + Int64(offset)
        let day = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        return (CivilDate(dayNumber: day), Int((local - day * 86_400) / 60), offset)
    }

    static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// `Mon 2024-12-02 09:30 -05:00`.
    static func text(_ instant: Timestamp, in zone: TimeZone) -> String {
        let (date, minute, offset) = parts(instant, in: zone)
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset) / 60
        return "\(MarketCommand.weekdayName(date.weekday)) \(date) \(two(minute / 60)):\(two(minute % 60)) \(sign)\(two(magnitude / 60)):\(two(magnitude % 60))"
    }

    /// `09:30`, or `Sun 17:00` when the wall-clock date is not `dayOf`.
    static func clock(_ instant: Timestamp, in zone: TimeZone, dayOf day: CivilDate? = nil) -> String {
        let (date, minute, _) = parts(instant, in: zone)
        let clock = "\(two(minute / 60)):\(two(minute % 60))"
        guard let day, day != date else { return clock }
        return "\(MarketCommand.weekdayName(date.weekday)) \(clock)"
    }
}
