/// The arithmetic paper trading needs beyond what rules use: products and sums of money,
/// rounded half-even to 8 fractional digits, nil on overflow.
extension ExactDecimal {
    /// `self + other`, nil on overflow.
    public func adding(_ other: ExactDecimal) -> ExactDecimal? {
        let (result, overflow) = scaled.addingReportingOverflow(other.scaled)
        return overflow ? nil : ExactDecimal(scaled: result)
    }

    /// `self * other`, rounded half-even to 8 fractional digits; nil out of range.
    public func multiplied(by other: ExactDecimal) -> ExactDecimal? {
        Self.roundedHalfEven(wideProduct(other), dividedBy: Int128(Self.unit))
    }

    /// `self / divisor`, rounded half-even; nil when `divisor` is zero.
    public func divided(byInteger divisor: Int) -> ExactDecimal? {
        guard divisor != 0 else { return nil }
        return Self.roundedHalfEven(Int128(scaled), dividedBy: Int128(divisor))
    }

    /// The negated value.
    public var negated: ExactDecimal { ExactDecimal(scaled: 0 &- scaled) }

    /// The value as a `Double`, for ratios only (returns, never money).
    public var doubleValue: Double { Double(scaled) / Double(Self.unit) }

    /// The value rounded half-even to `digits` fractional digits (display of money).
    public func roundedHalfEven(toFractionDigits digits: Int) -> ExactDecimal {
        guard digits < Self.scale else { return self }
        let quantum = Int128(pow10(Self.scale - max(digits, 0)))
        guard let quotient = Self.roundedHalfEven(Int128(scaled), dividedBy: quantum) else { return self }
        return ExactDecimal(scaled: quotient.scaled * Int64(quantum))
    }

    static func roundedHalfEven(_ numerator: Int128, dividedBy divisor: Int128) -> ExactDecimal? {
        var quotient = numerator / divisor
        let remainder = numerator % divisor
        let twice = abs(remainder) * 2
        let divisorMagnitude = abs(divisor)
        if twice > divisorMagnitude || (twice == divisorMagnitude && quotient % 2 != 0) {
            quotient += (numerator < 0) != (divisor < 0) ? -1 : 1
        }
        guard let scaled = Int64(exactly: quotient) else { return nil }
        return ExactDecimal(scaled: scaled)
    }
}
