/// An instant, in milliseconds since 1970-01-01T00:00:00Z.
///
/// The core never reads a clock: every "now" is passed in as a `Timestamp`. Quote times,
/// `expires` and `cooldown` are all measured on this scale, so replaying the same data always
/// gives the same alerts.
public struct Timestamp: Sendable, Hashable, Comparable, Codable {
    /// Milliseconds since the Unix epoch.
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    public init(seconds: Int64) { self.milliseconds = seconds &* 1000 }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.milliseconds < rhs.milliseconds }

    public func adding(_ duration: RuleDuration) -> Timestamp {
        Timestamp(milliseconds: milliseconds &+ duration.seconds &* 1000)
    }

    public func subtracting(_ duration: RuleDuration) -> Timestamp {
        Timestamp(milliseconds: milliseconds &- duration.seconds &* 1000)
    }

    /// Whole seconds since the epoch (rounded down).
    public var seconds: Int64 { milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000 }

    public init(from decoder: any Decoder) throws {
        milliseconds = try decoder.singleValueContainer().decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(milliseconds)
    }
}

// MARK: - Civil calendar (proleptic Gregorian, UTC)

extension Timestamp {
    /// Creates an instant from a UTC calendar date and time; `nil` when a field is out of range.
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0,
                 millisecond: Int = 0, offsetMinutes: Int = 0) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...Self.daysIn(month: month, year: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
              (0...999).contains(millisecond), (-1439...1439).contains(offsetMinutes)
        else { return nil }
        let days = Self.daysFromCivil(year: year, month: month, day: day)
        let secondsOfDay = Int64(hour * 3600 + minute * 60 + second - offsetMinutes * 60)
        self.milliseconds = (days * 86_400 + secondsOfDay) * 1000 + Int64(millisecond)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days_from_civil: exact for every proleptic Gregorian date.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civilFromDays(_ days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0)), Int(month), Int(day))
    }
}

// MARK: - RFC 3339

extension Timestamp: CustomStringConvertible {
    /// RFC 3339 in UTC with a `Z` suffix: `2024-10-02T14:31:00Z`, with milliseconds only when
    /// they are not zero (`2024-10-02T14:31:00.250Z`).
    public var description: String { rfc3339 }

    public var rfc3339: String {
        let totalSeconds = seconds
        let millis = Int(milliseconds - totalSeconds * 1000)
        var days = totalSeconds / 86_400
        var secondOfDay = totalSeconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let (year, month, day) = Self.civilFromDays(days)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
        }
        let hour = Int(secondOfDay / 3600), minute = Int(secondOfDay % 3600 / 60), second = Int(secondOfDay % 60)
        var result = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
        if millis != 0 { result += "." + pad(millis, 3) }
        return result + "Z"
    }

    /// Parses the time forms of the backtest CSV: RFC 3339 (`2024-10-02T13:30:00Z`,
    /// `2024-10-02T09:30:00-04:00`, fractional seconds allowed), unix seconds (`1727875800`),
    /// or a date (`2024-10-02`, midnight UTC). `nil` when the text is none of these.
    public init?(parsing text: String) {
        var text = text
        guard let value = text.withUTF8({ Timestamp.parse($0[...]) }) else { return nil }
        self = value
    }

    /// Parses ASCII bytes (the CSV hot path).
    public static func parse(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Timestamp? {
        let count = bytes.count
        guard count > 0 else { return nil }
        let base = bytes.startIndex
        @inline(__always) func digit(_ offset: Int) -> Int? {
            guard offset < count else { return nil }
            let value = Int(bytes[base + offset]) - 48
            return (0...9).contains(value) ? value : nil
        }
        @inline(__always) func number(_ offset: Int, _ width: Int) -> Int? {
            var value = 0
            for index in offset..<(offset + width) {
                guard let d = digit(index) else { return nil }
                value = value * 10 + d
            }
            return value
        }
        @inline(__always) func byte(_ offset: Int) -> UInt8? { offset < count ? bytes[base + offset] : nil }

        // Unix seconds: only digits (and an optional leading minus).
        if count < 10 || byte(4) != UInt8(ascii: "-") {
            var value: Int64 = 0
            var index = 0
            let negative = byte(0) == UInt8(ascii: "-")
            if negative { index = 1 }
            guard index < count, count - index <= 12 else { return nil }
            while index < count {
                guard let d = digit(index) else { return nil }
                value = value * 10 + Int64(d)
                index += 1
            }
            return Timestamp(seconds: negative ? -value : value)
        }
        guard let year = number(0, 4), byte(4) == UInt8(ascii: "-"), let month = number(5, 2),
              byte(7) == UInt8(ascii: "-"), let day = number(8, 2) else { return nil }
        if count == 10 { return Timestamp(year: year, month: month, day: day) }
        guard let separator = byte(10), separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t") || separator == UInt8(ascii: " "),
              let hour = number(11, 2), byte(13) == UInt8(ascii: ":"), let minute = number(14, 2),
              byte(16) == UInt8(ascii: ":"), let second = number(17, 2) else { return nil }
        var index = 19
        var millisecond = 0
        if byte(index) == UInt8(ascii: ".") {
            index += 1
            var place = 100
            let start = index
            while let d = digit(index) {
                millisecond += d * place
                place /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offsetMinutes = 0
        guard let zone = byte(index) else { return nil }
        if zone == UInt8(ascii: "Z") || zone == UInt8(ascii: "z") {
            index += 1
        } else if zone == UInt8(ascii: "+") || zone == UInt8(ascii: "-") {
            guard let hours = number(index + 1, 2), byte(index + 3) == UInt8(ascii: ":"),
                  let minutes = number(index + 4, 2), hours < 24, minutes < 60 else { return nil }
            offsetMinutes = (hours * 60 + minutes) * (zone == UInt8(ascii: "-") ? -1 : 1)
            index += 6
        } else {
            return nil
        }
        // Seconds 60 (a leap second) reads as :59; 61 and above are invalid, not clamped.
        guard index == count, second <= 60 else { return nil }
        return Timestamp(year: year, month: month, day: day, hour: hour, minute: minute,
                         second: min(second, 59), millisecond: millisecond, offsetMinutes: offsetMinutes)
    }
}
