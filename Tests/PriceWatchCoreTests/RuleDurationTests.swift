import Foundation
import Testing
@testable import PriceWatchCore

@Suite("RuleDuration")
struct RuleDurationTests {
    @Test("parses one or more <integer><unit> parts", arguments: [
        ("30s", Int64(30)),
        ("5m", 300),
        ("1h30m", 5_400),
        ("90m", 5_400),
        ("7d", 604_800),
        ("1d12h", 129_600),
        ("1d2h3m4s", 93_784),
        ("1h", 3_600),
        ("1d", 86_400),
        ("30d", 2_592_000),
        ("15m", 900),
        ("0h5m", 300),
        ("1m0s", 60),
        ("05m", 300),
        ("999999999s", 999_999_999),
        ("999999999d", 86_399_999_913_600),
    ])
    func parses(text: String, seconds: Int64) throws {
        #expect(try RuleDuration(parsing: text).seconds == seconds)
    }

    @Test("rejects malformed durations", arguments: [
        ("", ""),
        ("5", " (the last number has no unit)"),
        ("1h30", " (the last number has no unit)"),
        ("m", " (a unit needs a number before it)"),
        ("5mm", " (a unit needs a number before it)"),
        ("5x", " (unknown unit 'x'; units are s, m, h, d)"),
        ("5M", " (unknown unit 'M'; units are s, m, h, d)"),
        ("30m1h", " (units must go from largest to smallest, each once)"),
        ("1h1h", " (units must go from largest to smallest, each once)"),
        ("1s1m", " (units must go from largest to smallest, each once)"),
        ("0s", " (must be longer than zero)"),
        ("0d0h0m0s", " (must be longer than zero)"),
        ("-5m", " (unknown unit '-'; units are s, m, h, d)"),
        (" 5m", " (unknown unit ' '; units are s, m, h, d)"),
        ("5m ", " (unknown unit ' '; units are s, m, h, d)"),
        ("5 m", " (unknown unit ' '; units are s, m, h, d)"),
        ("1.5h", " (unknown unit '.'; units are s, m, h, d)"),
        ("+5m", " (unknown unit '+'; units are s, m, h, d)"),
        ("٥m", " (unknown unit '٥'; units are s, m, h, d)"),
        ("1000000000s", " (too large)"),
    ])
    func rejects(text: String, why: String) {
        let expected = RuleDuration.ParseError(
            text: text,
            reason: "expected a duration such as \"30s\", \"5m\", \"1h30m\" or \"7d\", found \"\(text)\"\(why)")
        #expect(throws: expected) { try RuleDuration(parsing: text) }
        #expect(expected.description == expected.reason)
    }

    @Test("description is canonical and parses back", arguments: [
        (Int64(30), "30s"),
        (60, "1m"),
        (300, "5m"),
        (3_600, "1h"),
        (5_400, "1h30m"),
        (86_400, "1d"),
        (86_401, "1d1s"),
        (90_061, "1d1h1m1s"),
        (129_600, "1d12h"),
        (604_800, "7d"),
        (3_599, "59m59s"),
    ])
    func description(seconds: Int64, text: String) throws {
        let value = try #require(RuleDuration(seconds: seconds))
        #expect(value.description == text)
        #expect(try RuleDuration(parsing: text) == value)
    }

    @Test("init(seconds:) requires a positive length", arguments: [
        (Int64(1), true), (0, false), (-1, false), (Int64.min, false),
    ])
    func initSeconds(seconds: Int64, valid: Bool) {
        #expect((RuleDuration(seconds: seconds) != nil) == valid)
    }

    @Test("ordering and Swift.Duration")
    func orderingAndDuration() {
        #expect(duration("59m") < duration("1h"))
        #expect(duration("90m") == duration("1h30m"))
        #expect(duration("1h30m").swiftDuration == .seconds(5_400))
    }
}
