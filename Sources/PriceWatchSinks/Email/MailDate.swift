import PriceWatchCore

/// The RFC 5322 3.3 date-time of a `Date` header, in UTC: `Sat, 21 Nov 2026 09:51:58 +0000`.
enum MailDate {
    static func rfc5322(_ time: Timestamp) -> String {
        // `rfc3339` is `YYYY-MM-DDTHH:MM:SS[.mmm]Z`; its fields are reused rather than
        // recomputing the civil calendar.
        let text = Array(time.rfc3339.utf8)
        func field(_ range: Range<Int>) -> String { String(decoding: text[range], as: UTF8.self) }
        let year = field(0..<4), month = Int(field(5..<7)) ?? 1, day = field(8..<10), clock = field(11..<19)
        // 1970-01-01 was a Thursday.
        let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
        let days = time.seconds >= 0 ? time.seconds / 86_400 : (time.seconds - 86_399) / 86_400
        let weekday = weekdays[Int(((days % 7) + 7) % 7)]
        return "\(weekday), \(day) \(Timestamp.monthAbbreviations[(month - 1) % 12]) \(year) \(clock) +0000"
    }
}
