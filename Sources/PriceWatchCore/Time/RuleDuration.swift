/// A configured length of time: `"30s"`, `"5m"`, `"1h30m"`, `"7d"`.
///
/// Used for `interval`, `cooldown`, `from` windows and retention. Always a whole, positive
/// number of seconds.
public struct RuleDuration: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The length in seconds (always greater than zero).
    public let seconds: Int64

    public init?(seconds: Int64) {
        guard seconds > 0 else { return nil }
        self.seconds = seconds
    }

    public static func < (lhs: RuleDuration, rhs: RuleDuration) -> Bool { lhs.seconds < rhs.seconds }

    /// Why a duration string could not be read. The description says what was expected.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let text: String
        public let reason: String
        public var description: String { reason }
    }

    /// Parses one or more `<integer><unit>` parts, units `s`, `m`, `h`, `d`, each unit at most
    /// once and from largest to smallest (`"1h30m"`, not `"30m1h"`).
    public init(parsing text: String) throws(ParseError) {
        func fail(_ why: String) -> ParseError {
            ParseError(text: text, reason: "expected a duration such as \"30s\", \"5m\", \"1h30m\" or \"7d\", found \"\(text)\"\(why.isEmpty ? "" : " (\(why))")")
        }
        guard !text.isEmpty else { throw fail("") }
        var total: Int64 = 0
        var current: Int64 = 0
        var haveDigits = false
        var lastUnitRank = Int.max
        // By byte: every valid duration is ASCII (a configuration has one in most rules).
        for index in text.utf8.indices {
            let byte = text.utf8[index]
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                let (shifted, o1) = current.multipliedReportingOverflow(by: 10)
                let (sum, o2) = shifted.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
                guard !o1, !o2, sum < 1_000_000_000 else { throw fail("too large") }
                current = sum
                haveDigits = true
                continue
            }
            let (rank, multiplier): (Int, Int64)
            switch byte {
            case UInt8(ascii: "d"): (rank, multiplier) = (3, 86_400)
            case UInt8(ascii: "h"): (rank, multiplier) = (2, 3_600)
            case UInt8(ascii: "m"): (rank, multiplier) = (1, 60)
            case UInt8(ascii: "s"): (rank, multiplier) = (0, 1)
            // The bytes before are ASCII, so the index starts a character.
            default: throw fail("unknown unit '\(text[index])'; units are s, m, h, d")
            }
            guard haveDigits else { throw fail("a unit needs a number before it") }
            guard rank < lastUnitRank else { throw fail("units must go from largest to smallest, each once") }
            lastUnitRank = rank
            total += current * multiplier
            current = 0
            haveDigits = false
        }
        guard !haveDigits else { throw fail("the last number has no unit") }
        guard total > 0 else { throw fail("must be longer than zero") }
        self.seconds = total
    }

    /// The canonical form: `90m` is written `1h30m`.
    public var description: String {
        var remaining = seconds
        var text = ""
        for (unit, size) in [("d", Int64(86_400)), ("h", 3_600), ("m", 60), ("s", 1)] where remaining >= size {
            text += "\(remaining / size)\(unit)"
            remaining %= size
        }
        return text
    }

    /// The equivalent `Swift.Duration`, for clocks.
    public var swiftDuration: Duration { .seconds(seconds) }
}
