import Foundation
import Testing
@testable import PriceWatchCore
import PriceWatchTestKit

@Suite("ExactDecimal")
struct ExactDecimalTests {
    // MARK: Parsing

    @Test("parses plain decimal literals exactly", arguments: [
        ("225.70", Int64(22_570_000_000)),
        ("225.7", 22_570_000_000),
        ("0", 0),
        ("0.0", 0),
        ("-0", 0),
        ("200", 20_000_000_000),
        ("007", 700_000_000),
        ("-5", -500_000_000),
        ("+5", 500_000_000),
        ("-0.5", -50_000_000),
        ("0.00001234", 1_234),
        ("0.00000001", 1),
        ("-0.00000001", -1),
        ("1.12345678", 112_345_678),
        ("3.135", 313_500_000),
        // More than 8 fractional digits is fine when the extra ones are zeros.
        ("1.123456780", 112_345_678),
        ("1.12345678000000000000", 112_345_678),
        ("2.000000000000", 200_000_000),
        // The range ends: the largest representable value and the largest integer part.
        ("92233720368", 9_223_372_036_800_000_000),
        ("92233720368.54775807", Int64.max),
        ("-92233720368.54775807", -Int64.max),
    ])
    func parsesValid(text: String, scaled: Int64) throws {
        let value = try ExactDecimal(parsing: text)
        #expect(value.scaled == scaled)
        #expect(ExactDecimal(text) == ExactDecimal(scaled: scaled))
    }

    @Test("rejects malformed literals", arguments: [
        "abc", "1e2", "1E2", " 5", "5 ", "1,5", "-", "+", ".", "1.2.3", "--5", "+-5", "0x10", "5%", "$5",
        "1_000", "١", "５", "\u{0}", "nan", "inf", "- 5", "5-",
    ])
    func rejectsMalformed(text: String) {
        #expect(throws: ExactDecimal.ParseError.malformed(text)) { try ExactDecimal(parsing: text) }
        #expect(ExactDecimal(text) == nil)
    }

    @Test("rejects the empty string")
    func rejectsEmpty() {
        #expect(throws: ExactDecimal.ParseError.empty) { try ExactDecimal(parsing: "") }
        #expect(ExactDecimal.ParseError.empty.description == "expected a decimal number, found nothing")
    }

    @Test("rejects more than 8 significant fractional digits", arguments: [
        ("1.123456789", 9),
        ("0.000000001", 9),
        ("0.0000000010", 10),
        ("-3.1234567891", 10),
        ("1.000000000000001", 15),
    ])
    func rejectsTooManyFractionDigits(text: String, digits: Int) {
        #expect(throws: ExactDecimal.ParseError.tooManyFractionDigits(text, digits: digits)) {
            try ExactDecimal(parsing: text)
        }
    }

    @Test("rejects values out of range", arguments: [
        "92233720369", "-92233720369", "100000000000", "99999999999999999999999",
        // Integer part in range, but with the fraction the value no longer fits.
        "92233720368.54775808", "92233720368.6", "92233720368.99999999", "-92233720368.9",
    ])
    func rejectsOutOfRange(text: String) {
        #expect(throws: ExactDecimal.ParseError.outOfRange(text)) { try ExactDecimal(parsing: text) }
    }

    @Test("parse errors say what was expected and what was found", arguments: [
        (ExactDecimal.ParseError.malformed("1e2"), "expected a decimal number, found '1e2'"),
        (.tooManyFractionDigits("1.123456789", digits: 9), "expected at most 8 fractional digits, found 9 in 1.123456789"),
        (.outOfRange("1e99"), "expected a number between -92233720368 and 92233720368, found 1e99"),
    ])
    func parseErrorDescriptions(error: ExactDecimal.ParseError, text: String) {
        #expect(error.description == text)
    }

    @Test("init(exactly:) builds integral values and reports overflow", arguments: [
        (0, Int64?.some(0)),
        (5, 500_000_000),
        (-7, -700_000_000),
        (92_233_720_368, 9_223_372_036_800_000_000),
        (92_233_720_369, nil),
        (Int.max, nil),
        (Int.min, nil),
    ])
    func initExactly(integer: Int, scaled: Int64?) {
        #expect(ExactDecimal(exactly: integer)?.scaled == scaled)
    }

    // MARK: Formatting

    @Test("description is plain notation without trailing zeros or exponent", arguments: [
        (Int64(22_570_000_000), "225.7"),
        (20_000_000_000, "200"),
        (-500_000_000, "-5"),
        (-50_000_000, "-0.5"),
        (1_234, "0.00001234"),
        (1, "0.00000001"),
        (-1, "-0.00000001"),
        (0, "0"),
        (100_000_000_000, "1000"),
        (313_500_000, "3.135"),
        (Int64.max, "92233720368.54775807"),
        (Int64.min, "-92233720368.54775808"),
    ])
    func description(scaled: Int64, text: String) throws {
        let value = ExactDecimal(scaled: scaled)
        #expect(value.description == text)
        #expect("\(value)" == text)
        if scaled != Int64.min {
            #expect(try ExactDecimal(parsing: text) == value)
        }
    }

    @Test("formatted(minimumFractionDigits:) pads but never truncates", arguments: [
        ("225.7", 2, "225.70"),
        ("200", 2, "200.00"),
        ("200", 0, "200"),
        ("0.00001234", 2, "0.00001234"),
        ("1.5", 0, "1.5"),
        ("1.5", -1, "1.5"),
        ("1", 8, "1.00000000"),
        ("1", 10, "1.00000000"),
        ("-5", 2, "-5.00"),
        ("-0.5", 3, "-0.500"),
        ("0", 2, "0.00"),
        ("3.135", 2, "3.135"),
    ])
    func formatted(text: String, minimum: Int, expected: String) {
        #expect(dec(text).formatted(minimumFractionDigits: minimum) == expected)
    }

    @Test("significantFractionDigits", arguments: [
        ("0", 0), ("200", 0), ("225.7", 1), ("225.70", 1), ("3.135", 3), ("0.00000001", 8), ("-1.25", 2),
    ])
    func significantFractionDigits(text: String, digits: Int) {
        #expect(dec(text).significantFractionDigits == digits)
    }

    // MARK: From Double

    @Test("init(_:roundedToFractionDigits:) uses the shortest representation, rounded half away from zero", arguments: [
        (225.6999969482422, 2, "225.70"),
        (-225.6999969482422, 2, "-225.70"),
        (225.6999969482422, 8, "225.69999695"),
        (225.6999969482422, 4, "225.7"),
        (1.234e-05, 8, "0.00001234"),
        (1.234e-05, 6, "0.000012"),
        (1.234e-05, 4, "0"),
        (1.5e-05, 5, "0.00002"),
        (-1.5e-05, 5, "-0.00002"),
        (1e-05, 8, "0.00001"),
        (0.0001, 8, "0.0001"),
        (1e-09, 8, "0"),
        (Double.leastNonzeroMagnitude, 8, "0"),
        (3.135, 8, "3.135"),
        (3.135, 2, "3.14"),
        (0.5, 0, "1"),
        (-0.5, 0, "-1"),
        (2.5, 0, "3"),
        (2.4999, 0, "2"),
        (99.995, 2, "100"),
        (0.30000000000000004, 8, "0.3"),
        (0.0, 8, "0"),
        (-0.0, 8, "0"),
        (1e10, 2, "10000000000"),
        (123456789.123, 8, "123456789.123"),
        (92233720367.9, 8, "92233720367.9"),
        (1.123456789, 12, "1.12345679"),
        (2.5, -3, "3"),
    ])
    func fromDouble(value: Double, digits: Int, expected: String) {
        #expect(ExactDecimal(value, roundedToFractionDigits: digits) == dec(expected))
    }

    @Test("init from Double reads the shortest representation as its plain definition does, for 200,000 values")
    func fromDoubleMatchesItsDefinition() {
        // The definition, written plainly with strings (as the reader was before it read in place).
        func reference(_ value: Double, _ digits: Int) -> ExactDecimal? {
            guard value.isFinite, abs(value) < 92_233_720_368 else { return nil }
            let kept = min(max(digits, 0), ExactDecimal.scale)
            let parts = "\(value.magnitude)".lowercased().split(separator: "e")
            guard let mantissa = parts.first, let exponent = parts.count == 2 ? Int(parts[1]) : 0 else { return nil }
            let pieces = mantissa.split(separator: ".", omittingEmptySubsequences: false)
            var digitString = String(pieces[0]) + (pieces.count > 1 ? String(pieces[1]) : "")
            var point = pieces[0].count + exponent
            if point < 0 {
                digitString = String(repeating: "0", count: -point) + digitString
                point = 0
            }
            if digitString.count < point + kept + 1 {
                digitString += String(repeating: "0", count: point + kept + 1 - digitString.count)
            }
            let ascii = Array(digitString.utf8).map { Int64($0 &- 48) }
            var scaled: Int64 = 0
            for digit in ascii[0..<(point + kept)] { scaled = scaled * 10 + digit }
            if ascii[point + kept] >= 5 { scaled += 1 }
            scaled *= pow10(ExactDecimal.scale - kept)
            return ExactDecimal(scaled: value < 0 ? -scaled : scaled)
        }
        var random = SeededRandom(seed: 0x2026_1127)
        func next() -> UInt64 { random.next() }
        var checked = 0
        for _ in 0..<200_000 {
            // Magnitudes from 1e-12 to 1e11, prices with few digits, and halfway cases.
            let exponent = Double(Int(next() % 24) - 12)
            let mantissa = Double(next() % 1_000_000_000) / 1e9
            var value = (1 + mantissa) * pow(10, exponent)
            switch next() % 4 {
            case 0: value = Double(next() % 10_000_000) / 100
            case 1: value = (Double(next() % 100_000) + 0.5) / pow(10, Double(next() % 9))
            default: break
            }
            if next() % 2 == 0 { value = -value }
            let digits = Int(next() % 11) - 1
            #expect(ExactDecimal(value, roundedToFractionDigits: digits) == reference(value, digits), "\(value), \(digits) digits")
            checked += 1
        }
        #expect(checked == 200_000)
    }

    @Test("init from Double defaults to 8 fractional digits")
    func fromDoubleDefaultDigits() {
        #expect(ExactDecimal(1.123456789) == dec("1.12345679"))
        #expect(ExactDecimal(225.6999969482422) == dec("225.69999695"))
    }

    @Test("init from Double rejects non-finite and out-of-range values", arguments: [
        Double.nan, -Double.nan, Double.signalingNaN, Double.infinity, -Double.infinity,
        92_233_720_368, -92_233_720_368, 1e11, -1e11, 1e300, Double.greatestFiniteMagnitude,
    ])
    func fromDoubleRejects(value: Double) {
        #expect(ExactDecimal(value, roundedToFractionDigits: 2) == nil)
        #expect(ExactDecimal(value) == nil)
    }

    // MARK: Rounding and percent change

    @Test("rounded(toFractionDigits:) rounds half away from zero", arguments: [
        ("225.695", 2, "225.70"),
        ("225.69499999", 2, "225.69"),
        ("-225.695", 2, "-225.70"),
        ("-225.69499999", 2, "-225.69"),
        ("1.5", 0, "2"),
        ("-1.5", 0, "-2"),
        ("1.49999999", 0, "1"),
        ("0.5", -1, "1"),
        ("1.23456789", 8, "1.23456789"),
        ("1.23456789", 10, "1.23456789"),
        ("1.23456789", 7, "1.2345679"),
        ("1.23456784", 7, "1.2345678"),
        ("9.995", 2, "10"),
        ("0", 2, "0"),
    ])
    func rounded(text: String, digits: Int, expected: String) {
        #expect(dec(text).rounded(toFractionDigits: digits) == dec(expected))
    }

    @Test("percentChange(from:) is exact and rounds half away from zero", arguments: [
        ("105", "100", 4, "5"),
        ("95", "100", 4, "-5"),
        ("100", "100", 4, "0"),
        ("3.135", "3.3", 4, "-5"),
        ("3.465", "3.3", 4, "5"),
        ("3.1", "3", 4, "3.3333"),
        ("3.2", "3", 4, "6.6667"),
        ("2.8", "3", 4, "-6.6667"),
        ("2.9", "3", 4, "-3.3333"),
        ("1.00005", "1", 2, "0.01"),
        ("0.99995", "1", 2, "-0.01"),
        ("1.00004999", "1", 2, "0"),
        ("0.99995001", "1", 2, "0"),
        ("200", "100", 0, "100"),
        ("1", "3", 8, "-66.66666667"),
        ("2", "3", 8, "-33.33333333"),
        ("0.00000001", "92233720368", 8, "-100"),
    ])
    func percentChange(price: String, base: String, digits: Int, expected: String) {
        #expect(dec(price).percentChange(from: dec(base), roundedTo: digits) == dec(expected))
    }

    @Test("percentChange is nil when the change does not fit, never clamped", arguments: [
        ("90000000000", "0.00000001"),
        ("92233720368", "0.0001"),
        ("92233720368.54775807", "0.00000001"),
    ])
    func percentChangeOutOfRange(price: String, base: String) {
        #expect(dec(price).percentChange(from: dec(base)) == nil)
        #expect(dec(price).percentChange(from: dec(base), roundedTo: 0) == nil)
    }

    @Test("percentChange rounds to 4 fractional digits by default")
    func percentChangeDefaultDigits() {
        #expect(dec("3.1").percentChange(from: dec("3")) == dec("3.3333"))
        #expect(dec("3.2").percentChange(from: dec("3")) == dec("6.6667"))
    }

    // MARK: Arithmetic, ordering, coding

    @Test("subtracting reports overflow as nil", arguments: [
        (Int64(500), Int64(200), Int64?.some(300)),
        (-500, 200, -700),
        (Int64.min, 1, nil),
        (Int64.max, -1, nil),
        (0, Int64.min, nil),
    ])
    func subtracting(lhs: Int64, rhs: Int64, expected: Int64?) {
        #expect(ExactDecimal(scaled: lhs).subtracting(ExactDecimal(scaled: rhs))?.scaled == expected)
    }

    @Test("wide products never overflow")
    func wideProducts() {
        let max = ExactDecimal(scaled: Int64.max)
        #expect(max.wideProduct(max) == Int128(Int64.max) * Int128(Int64.max))
        #expect(dec("1.5").wideProduct(dec("2")) == Int128(300_000_000) * Int128(ExactDecimal.unit))
        #expect(dec("-3").wide == Int128(-300_000_000) * Int128(100_000_000))
    }

    @Test("ordering follows the numeric value")
    func ordering() {
        let values = ["3.3", "-1", "0", "3.135", "200", "0.00000001", "-0.5"].map(dec)
        #expect(values.sorted().map(\.description) == ["-1", "-0.5", "0", "0.00000001", "3.135", "3.3", "200"])
        #expect(dec("200.0") == dec("200"))
        #expect(dec("1").isPositive && !dec("0").isPositive && !dec("-1").isPositive)
        #expect(ExactDecimal.zero == dec("0") && ExactDecimal.hundred == dec("100"))
    }

    @Test("Codable as a plain decimal string")
    func codable() throws {
        let data = try JSONEncoder().encode([dec("225.70"), dec("-5"), dec("0.00001234")])
        #expect(String(decoding: data, as: UTF8.self) == #"["225.7","-5","0.00001234"]"#)
        let decoded = try JSONDecoder().decode([ExactDecimal].self, from: Data(#"["3.135","200.00"]"#.utf8))
        #expect(decoded == [dec("3.135"), dec("200")])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([ExactDecimal].self, from: Data(#"["1e2"]"#.utf8))
        }
    }
}
