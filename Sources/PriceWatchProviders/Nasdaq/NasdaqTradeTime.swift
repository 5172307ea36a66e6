import FoundationEssentials
import PriceWatchCore

/// Nasdaq's `lastTradeTimestamp`, a display text in New York time: `DATA AS OF Nov 19, 2019
/// 10:33 AM ET`, with ` - PRE-MARKET` or ` - AFTER HOURS` after it outside the session,
/// `DATA AS OF Nov 19, 2019` (a date only) once the market has closed, or the same without
/// `DATA AS OF `.
///
/// A date without a time is taken as 16:00 New York time, the regular session's close: the
/// price is that day's last sale. Anything else is not a time (nil), never a guess.
enum NasdaqTradeTime {
    static let newYork = TimeZone(identifier: "America/New_York")

    private static let months = ["jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
                                 "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12]

    static func parse(_ text: String) -> Timestamp? {
        var rest = Substring(text.trimmingCharacters(in: " "))
        if rest.uppercased().hasPrefix("DATA AS OF ") { rest = rest.dropFirst("DATA AS OF ".count) }
        if let dash = rest.range(of: " - ") { rest = rest[..<dash.lowerBound] }
        let words = rest.split(separator: " ")
        // MMM d, yyyy [h:mm AM|PM ET]
        guard words.count == 3 || words.count == 6,
              let month = months[words[0].lowercased()],
              words[1].hasSuffix(","), let day = Int(words[1].dropLast()), (1...31).contains(day),
              let year = Int(words[2]), (1990...2200).contains(year) else { return nil }
        var hour = 16, minute = 0
        if words.count == 6 {
            let clock = words[3].split(separator: ":")
            guard clock.count == 2, let h = Int(clock[0]), (1...12).contains(h), let m = Int(clock[1]), (0...59).contains(m),
                  clock[1].count == 2, words[5] == "ET" else { return nil }
            switch words[4] {
            case "AM": hour = h == 12 ? 0 : h
            case "PM": hour = h == 12 ? 12 : h + 12
            default: return nil
            }
            minute = m
        }
        guard let newYork else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = newYork
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute)
        // A day that does not exist (Feb 30) is not rolled over into another.
        guard let date = calendar.date(from: components),
              calendar.component(.day, from: date) == day else { return nil }
        return Timestamp(milliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded()))
    }
}
