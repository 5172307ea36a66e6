import FoundationEssentials

/// Times for people: `2024-10-02 09:30` in a given zone (text outputs; machine formats print
/// UTC RFC 3339).
public enum LocalTimeText {
    /// `yyyy-MM-dd HH:mm` in `zone`.
    public static func text(_ time: Timestamp, zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute],
                                            from: Date(timeIntervalSince1970: Double(time.milliseconds) / 1000))
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "--" }
        return "\(parts.year.map(String.init) ?? "----")-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute))"
    }

    /// `13:00 -05:00`: the wall-clock time in the IANA zone `identifier` with the zone's offset
    /// then (the dashboard's early closes); `18:00 UTC` when the zone is unknown.
    public static func clock(_ time: Timestamp, zoneIdentifier identifier: String) -> String {
        let zone = TimeZone(identifier: identifier)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone ?? TimeZone(identifier: "UTC") ?? .gmt
        let parts = calendar.dateComponents([.hour, .minute], from: Date(timeIntervalSince1970: Double(time.milliseconds) / 1000))
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "--" }
        return "\(two(parts.hour)):\(two(parts.minute)) " + (zone.map { offset(time, zone: $0) } ?? "UTC")
    }

    /// A time in a text output: `2024-10-02 09:30 -04:00` in `zone`, or RFC 3339 in UTC
    /// (`2024-10-02T13:30:00Z`) without one (`--tz` not given).
    public static func stamp(_ time: Timestamp, zone: TimeZone?) -> String {
        guard let zone else { return time.rfc3339 }
        return text(time, zone: zone) + " " + offset(time, zone: zone)
    }

    /// The zone's offset from UTC at `time`: `-04:00`, `+05:30`, `+00:00`.
    public static func offset(_ time: Timestamp, zone: TimeZone) -> String {
        let seconds = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(time.milliseconds) / 1000))
        let minutes = abs(seconds) / 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return (seconds < 0 ? "-" : "+") + two(minutes / 60) + ":" + two(minutes % 60)
    }
}
