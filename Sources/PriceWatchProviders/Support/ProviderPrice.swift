import PriceWatchCore

/// Prices as services send them, to exact decimals: strings exactly (rounded half away from
/// zero only past the 8 fractional digits a price may have), floats to the precision the
/// service publishes. A price must be greater than zero; anything else is not a price.
public enum ProviderPrice {
    /// A decimal string (`"755.96"`, `"4.00000200"`); more than 8 fractional digits are
    /// rounded to 8. `nil` when the text is not a plain decimal.
    public static func parse(_ text: String) -> ExactDecimal? {
        let trimmed = text.trimmingCharacters(in: " ")
        do {
            return try ExactDecimal(parsing: trimmed)
        } catch .tooManyFractionDigits {
            guard let point = trimmed.firstIndex(of: ".") else { return nil }
            let keptEnd = trimmed.index(point, offsetBy: ExactDecimal.scale + 1)
            guard let kept = try? ExactDecimal(parsing: String(trimmed[..<keptEnd])),
                  let next = trimmed[keptEnd...].first?.wholeNumberValue else { return nil }
            guard next >= 5 else { return kept }
            let (value, overflow) = kept.scaled.addingReportingOverflow(kept.scaled < 0 || trimmed.hasPrefix("-") ? -1 : 1)
            return overflow ? nil : ExactDecimal(scaled: value)
        } catch {
            return nil
        }
    }

    /// A positive decimal string, or `nil`.
    public static func positive(_ text: String?) -> ExactDecimal? {
        guard let text, let value = parse(text), value.isPositive else { return nil }
        return value
    }

    /// A positive float rounded to `digits` fractional digits (at most 8), or `nil`.
    public static func positive(_ value: Double?, fractionDigits digits: Int) -> ExactDecimal? {
        guard let value, value > 0, let decimal = ExactDecimal(value, roundedToFractionDigits: digits),
              decimal.isPositive else { return nil }
        return decimal
    }

    /// A traded volume: a non-negative decimal string exactly, or a non-negative float to 8
    /// fractional digits; `nil` otherwise (a missing or negative volume is no volume).
    public static func volume(_ text: String?) -> ExactDecimal? {
        guard let text, let value = parse(text), value.scaled >= 0 else { return nil }
        return value
    }

    /// See ``volume(_:)-(String?)``.
    public static func volume(_ value: Double?) -> ExactDecimal? {
        guard let value, value >= 0 else { return nil }
        return ExactDecimal(value, roundedToFractionDigits: ExactDecimal.scale)
    }
}
