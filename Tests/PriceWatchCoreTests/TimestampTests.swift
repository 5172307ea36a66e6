import Foundation
import Testing
@testable import PriceWatchCore

@Suite("Timestamp")
struct TimestampTests {
    /// 2024-10-02T13:30:00Z, the example time of `docs/rules.md`.
    static let example: Int64 = 1_727_875_800_000

    static let valid: [(String, Int64)] = [
        ("1970-01-01T00:00:00Z", 0),
        ("2024-10-02T13:30:00Z", example),
        ("2024-10-02t13:30:00z", example),
        ("2024-10-02 13:30:00Z", example),
        ("2024-10-02T13:30:00+00:00", example),
        ("2024-10-02T13:30:00-00:00", example),
        ("2024-10-02T09:30:00-04:00", example),
        ("2024-10-02T19:00:00+05:30", example),
        ("2024-10-03T13:29:00+23:59", example),
        ("2024-10-01T13:31:00-23:59", example),
        ("2024-10-02T13:30:00.250Z", example + 250),
        ("2024-10-02T13:30:00.5Z", example + 500),
        ("2024-10-02T13:30:00.05Z", example + 50),
        ("2024-10-02T13:30:00.999Z", example + 999),
        ("2024-10-02T13:30:00.123456789Z", example + 123),
        ("2024-10-02T09:30:00.750-04:00", example + 750),
        // A leap second is read as the last second of its minute.
        ("2024-10-02T13:30:60Z", example + 59_000),
        ("1969-12-31T23:59:59Z", -1_000),
        ("1969-12-31T23:59:59.999Z", -1),
        ("2000-02-29T00:00:00Z", 951_782_400_000),
        ("1900-01-01T00:00:00Z", -2_208_988_800_000),
        ("0001-01-01T00:00:00Z", -62_135_596_800_000),
        ("9999-12-31T23:59:59.999Z", 253_402_300_799_999),
        // Unix seconds.
        ("1727875800", example),
        ("0", 0),
        ("-86400", -86_400_000),
        ("-172787580", -172_787_580_000),
        ("999999999999", 999_999_999_999_000),
        // Dates are midnight UTC.
        ("2024-10-02", 1_727_827_200_000),
        ("2000-02-29", 951_782_400_000),
        ("1970-01-01", 0),
        ("1969-12-31", -86_400_000),
        ("2100-02-28", 4_107_456_000_000),
    ]

    @Test("parses RFC 3339, unix seconds and dates", arguments: valid)
    func parses(text: String, milliseconds: Int64) {
        #expect(Timestamp(parsing: text) == Timestamp(milliseconds: milliseconds))
    }

    @Test("rejects invalid times", arguments: [
        "", " ", "garbage", "now", "-", "+1727875800", "1727875800.5", "1727875800x", "17278 75800",
        "1234567890123", // more than 12 digits of seconds
        "2024-13-01", "2024-00-10", "2024-10-00", "2024-10-32", "2024-04-31", "2024-06-31", "2024-02-30",
        "2023-02-29", "1900-02-29", "2100-02-29", "0000-01-01",
        "24-10-02", "2024/10/02", "2024-1-02", "2024-10-2", "2024-10-02x", " 2024-10-02", "2024-10-02 ",
        "2024-10-02T", "2024-10-02T13:30Z", "2024-10-02T13:30:00", "2024-10-02T13:30:00Zx",
        "2024-10-02T13:30:00Z ", "2024-10-02X13:30:00Z", "2024-10-02T13-30-00Z",
        "2024-10-02T24:00:00Z", "2024-10-02T13:60:00Z", "2024-10-02T13:30:61Z", "2024-10-02T13:30:99Z",
        "2024-10-02T1:30:00Z", "2024-10-02T13:30:00.Z", "2024-10-02T13:30:00.", "2024-10-02T13:30:00,5Z",
        "2024-10-02T13:30:00+0400", "2024-10-02T13:30:00+04", "2024-10-02T13:30:00+24:00",
        "2024-10-02T13:30:00+04:60", "2024-10-02T13:30:00+04:00Z", "2024-10-02T13:30:00UTC",
        "2023-02-29T00:00:00Z", "2024-02-30T12:00:00Z",
    ])
    func rejects(text: String) {
        #expect(Timestamp(parsing: text) == nil)
    }

    static let formatted: [(Int64, String)] = [
        (0, "1970-01-01T00:00:00Z"),
        (example, "2024-10-02T13:30:00Z"),
        (example + 250, "2024-10-02T13:30:00.250Z"),
        (example + 5, "2024-10-02T13:30:00.005Z"),
        (example + 59_999, "2024-10-02T13:30:59.999Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (-1_000, "1969-12-31T23:59:59Z"),
        (-1_001, "1969-12-31T23:59:58.999Z"),
        (-86_400_000, "1969-12-31T00:00:00Z"),
        (951_782_400_000, "2000-02-29T00:00:00Z"),
        (951_868_800_000, "2000-03-01T00:00:00Z"),
        (-2_208_988_800_000, "1900-01-01T00:00:00Z"),
        (-2_203_891_200_000, "1900-03-01T00:00:00Z"),
        (4_107_542_400_000, "2100-03-01T00:00:00Z"),
        (-62_135_596_800_000, "0001-01-01T00:00:00Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
    ]

    @Test("formats RFC 3339 in UTC, with milliseconds only when not zero", arguments: formatted)
    func formats(milliseconds: Int64, text: String) {
        let time = Timestamp(milliseconds: milliseconds)
        #expect(time.rfc3339 == text)
        #expect(time.description == text)
        #expect(Timestamp(parsing: text) == time)
    }

    @Test("days from civil across eras", arguments: [
        (1970, 1, 1, Int64(0)),
        (1969, 12, 31, -1),
        (2000, 2, 29, 11_016),
        (2000, 3, 1, 11_017),
        (1900, 1, 1, -25_567),
        (1900, 2, 28, -25_509),
        (1900, 3, 1, -25_508),
        (2100, 2, 28, 47_540),
        (2100, 3, 1, 47_541),
        (1600, 3, 1, -135_080),
        (2024, 10, 2, 19_998),
        (1, 1, 1, -719_162),
        (9999, 12, 31, 2_932_896),
        (0, 3, 1, -719_468),
        (-1, 12, 31, -719_529),
    ])
    func daysFromCivil(year: Int, month: Int, day: Int, days: Int64) {
        #expect(Timestamp.daysFromCivil(year: year, month: month, day: day) == days)
        let civil = Timestamp.civilFromDays(days)
        #expect(civil.year == year && civil.month == month && civil.day == day)
    }

    @Test("civil round trip over every day of 1896 to 2104")
    func civilRoundTrip() {
        var days = Timestamp.daysFromCivil(year: 1896, month: 1, day: 1)
        var count = 0
        for year in 1896...2104 {
            for month in 1...12 {
                for day in 1...Timestamp.daysIn(month: month, year: year) {
                    #expect(Timestamp.daysFromCivil(year: year, month: month, day: day) == days)
                    days += 1
                    count += 1
                }
            }
        }
        // 209 years, 51 of them leap (1900 and 2100 are not).
        #expect(count == 209 * 365 + 51)
        #expect(days == Timestamp.daysFromCivil(year: 2105, month: 1, day: 1))
    }

    @Test("days in month follow the Gregorian leap rule", arguments: [
        (2, 2024, 29), (2, 2023, 28), (2, 2000, 29), (2, 1900, 28), (2, 2100, 28), (2, 2400, 29),
        (1, 2023, 31), (4, 2023, 30), (6, 2023, 30), (9, 2023, 30), (11, 2023, 30), (12, 2023, 31),
    ])
    func daysInMonth(month: Int, year: Int, days: Int) {
        #expect(Timestamp.daysIn(month: month, year: year) == days)
    }

    @Test("calendar initializer validates every field")
    func calendarInitializer() {
        #expect(Timestamp(year: 2024, month: 10, day: 2, hour: 13, minute: 30)?.milliseconds == Self.example)
        #expect(Timestamp(year: 2024, month: 10, day: 2, hour: 9, minute: 30, offsetMinutes: -240)?.milliseconds == Self.example)
        #expect(Timestamp(year: 2024, month: 10, day: 2, hour: 13, minute: 30, millisecond: 999)?.milliseconds == Self.example + 999)
        #expect(Timestamp(year: 2024, month: 10, day: 2, hour: 13, minute: 30, second: 60)?.milliseconds == Self.example + 60_000)
        #expect(Timestamp(year: 0, month: 1, day: 1) == nil)
        #expect(Timestamp(year: 10_000, month: 1, day: 1) == nil)
        #expect(Timestamp(year: 2024, month: 0, day: 1) == nil)
        #expect(Timestamp(year: 2024, month: 13, day: 1) == nil)
        #expect(Timestamp(year: 2023, month: 2, day: 29) == nil)
        #expect(Timestamp(year: 2024, month: 2, day: 29) != nil)
        #expect(Timestamp(year: 2024, month: 1, day: 0) == nil)
        #expect(Timestamp(year: 2024, month: 1, day: 1, hour: 24) == nil)
        #expect(Timestamp(year: 2024, month: 1, day: 1, minute: 60) == nil)
        #expect(Timestamp(year: 2024, month: 1, day: 1, second: 61) == nil)
        #expect(Timestamp(year: 2024, month: 1, day: 1, millisecond: 1_000) == nil)
        #expect(Timestamp(year: 2024, month: 1, day: 1, offsetMinutes: 1_440) == nil)
        #expect(Timestamp(year: 2024, month: 1, day: 1, offsetMinutes: -1_440) == nil)
    }

    @Test("whole seconds round down", arguments: [
        (Int64(0), Int64(0)), (999, 0), (1_000, 1), (1_999, 1), (-1, -1), (-999, -1), (-1_000, -1), (-1_001, -2),
    ])
    func seconds(milliseconds: Int64, seconds: Int64) {
        #expect(Timestamp(milliseconds: milliseconds).seconds == seconds)
    }

    @Test("arithmetic with durations and ordering")
    func arithmetic() {
        let time = Timestamp(seconds: 1_727_875_800)
        #expect(time.milliseconds == Self.example)
        #expect(time.adding(duration("1h30m")).milliseconds == Self.example + 5_400_000)
        #expect(time.subtracting(duration("1d")).milliseconds == Self.example - 86_400_000)
        #expect(at(1) < at(2) && !(at(2) < at(2)))
    }

    @Test("Codable as integer milliseconds")
    func codable() throws {
        let data = try JSONEncoder().encode([at(Self.example + 250), at(-1)])
        #expect(String(decoding: data, as: UTF8.self) == "[1727875800250,-1]")
        #expect(try JSONDecoder().decode([Timestamp].self, from: data) == [at(Self.example + 250), at(-1)])
    }
}
