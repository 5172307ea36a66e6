import Foundation

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

    /// The zone's offset from UTC at `time`: `-04:00`, `+05:30`, `+00:00`.
    public static func offset(_ time: Timestamp, zone: TimeZone) -> String {
        let seconds = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(time.milliseconds) / 1000))
        let minutes = abs(seconds) / 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return (seconds < 0 ? "-" : "+") + two(minutes / 60) + ":" + two(minutes % 60)
    }
}
