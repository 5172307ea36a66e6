/// Durations for log lines: `1.5s`, `2m`, `1h30m`.
enum DurationText {
    static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        if milliseconds < 60_000 {
            return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(Double(milliseconds) / 1000)s"
        }
        let total = seconds
        let parts = [(total / 86_400, "d"), (total % 86_400 / 3_600, "h"), (total % 3_600 / 60, "m"), (total % 60, "s")]
        return parts.filter { $0.0 > 0 }.map { "\($0.0)\($0.1)" }.joined()
    }
}
