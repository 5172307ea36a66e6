import Foundation

/// Where a chart of intraday prices crosses from one trading day to the next: the time of the
/// first price of each new calendar day in the market's time zone (after the first day). A
/// chart draws them as dashed lines, so a 5-day chart reads as five sessions and the night's
/// jump is not taken for a move. Daily or longer candles have no breaks worth drawing.
///
/// Pure: the prices and the zone are given.
public enum SessionBreaks {
    /// The breaks of `times` (oldest first) in the IANA zone `timeZone` (UTC when unknown).
    public static func between(_ times: [Timestamp], timeZone: String) -> [Timestamp] {
        guard let first = times.first else { return [] }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timeZone) ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        func day(_ time: Timestamp) -> Int {
            let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(time.milliseconds) / 1000))
            return (parts.year ?? 0) * 10_000 + (parts.month ?? 0) * 100 + (parts.day ?? 0)
        }
        var breaks: [Timestamp] = []
        var current = day(first)
        for time in times.dropFirst() {
            let next = day(time)
            if next != current {
                breaks.append(time)
                current = next
            }
        }
        return breaks
    }
}
