import PriceWatchCore

/// The HTTP `Date` header (RFC 9110 IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`), used as
/// the quote time by services whose payload has none.
public enum HTTPDate {
    /// The instant, or `nil` when the text is not an IMF-fixdate.
    public static func parse(_ text: String) -> Timestamp? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), parts[5] == "GMT",
              let day = Int(parts[1]), parts[1].count == 2, let year = Int(parts[3]), parts[3].count == 4
        else { return nil }
        guard let monthIndex = Timestamp.monthAbbreviations.firstIndex(of: String(parts[2])) else { return nil }
        let clock = parts[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
              let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]), second < 60
        else { return nil }
        return Timestamp(year: year, month: monthIndex + 1, day: day, hour: hour, minute: minute, second: second)
    }
}
