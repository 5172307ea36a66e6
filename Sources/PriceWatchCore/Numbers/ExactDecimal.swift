/// An exact decimal number with at most eight fractional digits, stored as a scaled integer.
///
/// Prices, thresholds and percents are all `ExactDecimal`s, so every rule comparison is exact:
/// `3.135` against a base of `3.3` is exactly -5%, where `Double` arithmetic would miss.
/// The representable range is about ±92 billion, far above any quoted price.
///
/// Products of two values are formed in 128-bit integers (`Int128`), so comparisons such as
/// `(price - base) * 100 >= P * base` never overflow and never round.
public struct ExactDecimal: Sendable, Hashable, Comparable, Codable {
    /// The number of fractional digits every value carries.
    public static let scale = 8
    /// `10^scale`: the integer that stands for `1`.
    public static let unit: Int64 = 100_000_000

    /// The value times `10^8`.
    public let scaled: Int64

    /// Creates a value from its representation scaled by `10^8`.
    public init(scaled: Int64) { self.scaled = scaled }

    /// Creates an integral value; `nil` when it is out of range.
    public init?(exactly integer: Int) {
        let (product, overflow) = Int64(integer).multipliedReportingOverflow(by: Self.unit)
        if overflow { return nil }
        self.scaled = product
    }

    public static let zero = ExactDecimal(scaled: 0)
    public static let hundred = ExactDecimal(scaled: 100 * unit)

    public static func < (lhs: ExactDecimal, rhs: ExactDecimal) -> Bool { lhs.scaled < rhs.scaled }

    public var isPositive: Bool { scaled > 0 }

    /// The number of fractional digits needed to write the value without loss (0 to 8).
    public var significantFractionDigits: Int {
        var fraction = abs(scaled % Self.unit)
        if fraction == 0 { return 0 }
        var digits = Self.scale
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        return digits
    }
}

// MARK: - Arithmetic used by rules

extension ExactDecimal {
    /// `lhs - rhs`, or `nil` on overflow.
    public func subtracting(_ other: ExactDecimal) -> ExactDecimal? {
        let (result, overflow) = scaled.subtractingReportingOverflow(other.scaled)
        return overflow ? nil : ExactDecimal(scaled: result)
    }

    /// The product as a 128-bit integer scaled by `10^16`.
    @inlinable
    public func wideProduct(_ other: ExactDecimal) -> Int128 {
        Int128(scaled) * Int128(other.scaled)
    }

    /// The value as a 128-bit integer scaled by `10^16` (comparable with `wideProduct`).
    @inlinable
    public var wide: Int128 { Int128(scaled) * Int128(Self.unit) }

    /// `(self - base) / base * 100`, rounded half away from zero to `digits` fractional
    /// digits; `nil` when the change is outside the representable range (about ±92 billion
    /// percent: a price of billions over a base of a few hundred-millionths), never a value
    /// clamped to the range. Used only to display a change; decisions never round.
    public func percentChange(from base: ExactDecimal, roundedTo digits: Int = 4) -> ExactDecimal? {
        precondition(base.scaled > 0 && (0...Self.scale).contains(digits))
        // change = (self - base) * 100 / base, scaled by 10^8: numerator scaled 10^8 * 10^8.
        let numerator = (Int128(scaled) - Int128(base.scaled)) * 100 * Int128(Self.unit)
        let quantum = Int128(pow10(Self.scale - digits))
        let divisor = Int128(base.scaled) * quantum
        var quotient = numerator / divisor
        let remainder = numerator % divisor
        if abs(remainder) * 2 >= divisor { quotient += numerator < 0 ? -1 : 1 }
        // |numerator| < 2^63 * 2^63 * 100 * 10^8 and the divisor is at least 1: the quotient
        // times the quantum stays far inside Int128; only the narrowing can fail.
        guard let scaled = Int64(exactly: quotient * quantum) else { return nil }
        return ExactDecimal(scaled: scaled)
    }

    /// The value rounded half away from zero to `digits` fractional digits (0 to 8).
    public func rounded(toFractionDigits digits: Int) -> ExactDecimal {
        guard digits < Self.scale else { return self }
        let quantum = pow10(Self.scale - max(digits, 0))
        var quotient = scaled / quantum
        let remainder = scaled % quantum
        if abs(remainder) * 2 >= quantum { quotient += scaled < 0 ? -1 : 1 }
        return ExactDecimal(scaled: quotient * quantum)
    }
}

extension ExactDecimal {
    /// 10 to the power `exponent` (0 to 18): the scaled units of one in the last of
    /// `scale - exponent` fractional digits.
    public static func powerOfTen(_ exponent: Int) -> Int64 { pow10(exponent) }
}

@usableFromInline
func pow10(_ exponent: Int) -> Int64 {
    var result: Int64 = 1
    for _ in 0..<exponent { result *= 10 }
    return result
}

// MARK: - Parsing

extension ExactDecimal {
    /// Why a decimal literal could not be read.
    public enum ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        case empty
        case malformed(String)
        case tooManyFractionDigits(String, digits: Int)
        case outOfRange(String)

        public var description: String {
            switch self {
            case .empty:
                return "expected a decimal number, found nothing"
            case .malformed(let text):
                return "expected a decimal number, found '\(ControlCharacters.shortened(text))'"
            case .tooManyFractionDigits(let text, let digits):
                return "expected at most \(ExactDecimal.scale) fractional digits, found \(digits) in \(ControlCharacters.shortened(text))"
            case .outOfRange(let text):
                return "expected a number between -92233720368 and 92233720368, found \(ControlCharacters.shortened(text))"
            }
        }
    }

    /// Parses a plain decimal literal: an optional sign, digits, and an optional fraction
    /// (`"225.70"`, `"-5"`, `"0.00001234"`). Exponents are not accepted: configuration and
    /// CSV data are written by people, and `1e2` there is more likely a typo than a price.
    public init(parsing text: String) throws(ParseError) {
        let bytes = Array(text.utf8)
        let result: Result<ExactDecimal, ParseError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(ParseError) { return .success(try ExactDecimal.parse(buffer[...])) } catch { return .failure(error) }
        }
        self = try result.get()
    }

    /// Parses ASCII bytes (the hot path of CSV reading; no `String` is created).
    public static func parse(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) throws(ParseError) -> ExactDecimal {
        func fail() -> ParseError { .malformed(String(decoding: bytes, as: UTF8.self)) }
        var index = bytes.startIndex
        let end = bytes.endIndex
        guard index < end else { throw .empty }
        var negative = false
        if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var integer: Int64 = 0
        var integerDigits = 0
        var fraction: Int64 = 0
        var fractionDigits = 0
        var extraFractionNonZero = false
        var extraFractionDigits = 0
        while index < end, bytes[index] &- 48 < 10 {
            let (shifted, o1) = integer.multipliedReportingOverflow(by: 10)
            let (sum, o2) = shifted.addingReportingOverflow(Int64(bytes[index] &- 48))
            if o1 || o2 || sum > Int64.max / unit { throw .outOfRange(String(decoding: bytes, as: UTF8.self)) }
            integer = sum
            integerDigits += 1
            index += 1
        }
        if index < end, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < end, bytes[index] &- 48 < 10 {
                if fractionDigits < scale {
                    fraction = fraction * 10 + Int64(bytes[index] &- 48)
                    fractionDigits += 1
                } else {
                    extraFractionDigits += 1
                    if bytes[index] != UInt8(ascii: "0") { extraFractionNonZero = true }
                }
                index += 1
            }
        }
        guard integerDigits + fractionDigits > 0 else { throw fail() }
        guard index == end else { throw fail() }
        if extraFractionNonZero {
            throw .tooManyFractionDigits(String(decoding: bytes, as: UTF8.self),
                                         digits: fractionDigits + extraFractionDigits)
        }
        // `integer <= Int64.max / unit`, but with the fraction the sum can still overflow
        // (`92233720368.6`): that is out of range, not a crash.
        let (value, overflow) = (integer * unit).addingReportingOverflow(fraction * pow10(scale - fractionDigits))
        if overflow { throw .outOfRange(String(decoding: bytes, as: UTF8.self)) }
        return ExactDecimal(scaled: negative ? -value : value)
    }

    /// The exact decimal nearest to a binary floating-point value from a provider, rounded
    /// half away from zero to `digits` fractional digits (at most 8). `nil` when the value is
    /// not finite or out of range.
    ///
    /// The shortest round-trip representation of the `Double` is used, so `225.6999969482422`
    /// with 2 digits is `225.70`, and a literal such as `3.135` is exactly `3.135`.
    public init?(_ value: Double, roundedToFractionDigits digits: Int = ExactDecimal.scale) {
        guard value.isFinite, abs(value) < 92_233_720_368 else { return nil }
        let kept = min(max(digits, 0), Self.scale)
        // "225.6999969482422", "1.234e-05": the digits, read in place (this runs for every
        // quote of a poll), and the position of the decimal point among them.
        var text = "\(value.magnitude)"
        guard let scaled = text.withUTF8({ Self.rounded(shortest: $0, keeping: kept) }) else { return nil }
        self.scaled = value < 0 ? -scaled : scaled
    }

    /// The scaled value of a `Double`'s shortest description (`digits[.digits][e[+-]digits]`),
    /// its digits up to `kept` places after the point, rounded half up on the next one.
    private static func rounded(shortest text: UnsafeBufferPointer<UInt8>, keeping kept: Int) -> Int64? {
        var mantissaEnd = text.count
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            mantissaEnd = e
            var cursor = e + 1
            var negative = false
            if cursor < text.count, text[cursor] == UInt8(ascii: "+") || text[cursor] == UInt8(ascii: "-") {
                negative = text[cursor] == UInt8(ascii: "-")
                cursor += 1
            }
            guard cursor < text.count else { return nil }
            while cursor < text.count {
                let digit = Int(text[cursor]) - 48
                guard (0...9).contains(digit), exponent < 1_000 else { return nil }
                exponent = exponent * 10 + digit
                cursor += 1
            }
            if negative { exponent = -exponent }
        }
        // The digits without the point, and how many came before it.
        return withUnsafeTemporaryAllocation(of: Int64.self, capacity: mantissaEnd) { digits -> Int64? in
            var digitCount = 0
            var integerDigits: Int?
            for index in 0..<mantissaEnd {
                let byte = text[index]
                if byte == UInt8(ascii: ".") {
                    guard integerDigits == nil else { return nil }
                    integerDigits = digitCount
                } else {
                    guard byte >= 48, byte <= 57 else { return nil }
                    digits[digitCount] = Int64(byte) - 48
                    digitCount += 1
                }
            }
            guard digitCount > 0 else { return nil }
            // Digits before the point; a number below 0.1 is written with zeros in front.
            let point = (integerDigits ?? digitCount) + exponent
            let zeros = max(0, -point)
            let end = max(point, 0) + kept
            guard end <= 19 else { return nil }
            func digit(_ position: Int) -> Int64 {
                let written = position - zeros
                return written >= 0 && written < digitCount ? digits[written] : 0
            }
            var scaled: Int64 = 0
            for position in 0..<end { scaled = scaled * 10 + digit(position) }
            if digit(end) >= 5 { scaled += 1 }
            return scaled * pow10(Self.scale - kept)
        }
    }
}

// MARK: - Formatting

extension ExactDecimal: CustomStringConvertible, LosslessStringConvertible {
    public init?(_ description: String) {
        guard let value = try? ExactDecimal(parsing: description) else { return nil }
        self = value
    }

    /// Plain decimal notation without trailing zeros: `226.78`, `200`, `-5`, `0.00001234`.
    /// This is the form used in JSON output (never an exponent).
    public var description: String { formatted(minimumFractionDigits: 0) }

    /// Plain decimal notation with at least `minimumFractionDigits` fractional digits
    /// (`formatted(minimumFractionDigits: 2)` of `225.7` is `225.70`).
    public func formatted(minimumFractionDigits: Int) -> String {
        let digits = min(max(significantFractionDigits, minimumFractionDigits), Self.scale)
        let magnitude = scaled.magnitude
        var whole = magnitude / UInt64(Self.unit)
        var fraction = magnitude % UInt64(Self.unit)
        // Written straight into the string's storage (a sign, at most 19 whole digits, a point
        // and 8 fractional digits): rule books and JSON output format many numbers.
        return String(unsafeUninitializedCapacity: 2 + 19 + Self.scale) { buffer in
            var count = 0
            if scaled < 0 {
                buffer[0] = UInt8(ascii: "-")
                count = 1
            }
            let wholeStart = count
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(whole % 10)
                whole /= 10
                count += 1
            } while whole > 0
            buffer[wholeStart..<count].reverse()
            if digits > 0 {
                buffer[count] = UInt8(ascii: ".")
                count += 1
                var divisor = UInt64(Self.unit) / 10
                for _ in 0..<digits {
                    buffer[count] = UInt8(ascii: "0") + UInt8(fraction / divisor)
                    fraction %= divisor
                    divisor /= 10
                    count += 1
                }
            }
            return count
        }
    }
}

extension ExactDecimal {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            self = try ExactDecimal(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
