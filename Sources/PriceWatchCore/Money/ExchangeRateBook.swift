/// Known exchange rates, answering conversions directly, inverted, or triangulated through a
/// common currency (EUR, the reference rates' base, then USD, the FX quotes' usual quote).
///
/// Pure: rates are added with their time and source; nothing is fetched and no clock is read.
/// Exact decimals with 8 fractional digits: an inverted or triangulated rate is rounded
/// half-even to that precision (a rate of 0.00000001 or less cannot be shown; such pairs are
/// answered through the other direction's rate by callers who need it).
public struct ExchangeRateBook: ExchangeRateSource, Sendable {
    /// The currencies a conversion may go through, in order.
    public static let commonCurrencies = ["EUR", "USD"]

    private var rates: [String: [ExchangeRate]] = [:]

    public init(_ rates: [ExchangeRate] = []) {
        for rate in rates { add(rate) }
    }

    private static func key(_ base: String, _ quote: String) -> String { base.uppercased() + "/" + quote.uppercased() }

    /// Adds `rate` (a later one for the same pair and time replaces it).
    public mutating func add(_ rate: ExchangeRate) {
        var list = rates[Self.key(rate.base, rate.quote), default: []]
        list.removeAll { $0.time == rate.time }
        list.append(rate)
        list.sort { $0.time < $1.time }
        rates[Self.key(rate.base, rate.quote)] = list
    }

    public func rate(from base: String, to quote: String, at instant: Timestamp) async -> ExchangeRate? {
        convert(from: base, to: quote, at: instant)
    }

    /// The newest rate at or before `instant` (see ``ExchangeRateSource``), synchronously.
    public func convert(from base: String, to quote: String, at instant: Timestamp) -> ExchangeRate? {
        let from = base.uppercased(), to = quote.uppercased()
        if from == to { return ExchangeRate(base: from, quote: to, rate: ExactDecimal(scaled: ExactDecimal.unit), time: instant, source: "identity") }
        if let direct = known(from, to, at: instant) { return direct }
        for common in Self.commonCurrencies where common != from && common != to {
            guard let first = known(from, common, at: instant), let second = known(common, to, at: instant),
                  let product = first.rate.multiplied(by: second.rate), product.scaled > 0 else { continue }
            return ExchangeRate(base: from, quote: to, rate: product, time: min(first.time, second.time),
                                source: first.source == second.source ? first.source : "\(first.source) + \(second.source)")
        }
        return nil
    }

    /// A stored rate for the pair or its inverse, the newest at or before `instant`.
    private func known(_ from: String, _ to: String, at instant: Timestamp) -> ExchangeRate? {
        let direct = rates[Self.key(from, to)]?.last { $0.time <= instant }
        let inverse = rates[Self.key(to, from)]?.last { $0.time <= instant }
        switch (direct, inverse) {
        case (let direct?, let inverse?) where inverse.time > direct.time:
            return Self.inverted(inverse) ?? direct
        case (let direct?, _):
            return direct
        case (nil, let inverse?):
            return Self.inverted(inverse)
        case (nil, nil):
            return nil
        }
    }

    /// `1 / rate`, half-even to 8 digits; nil for a zero or too small result.
    static func inverted(_ rate: ExchangeRate) -> ExchangeRate? {
        guard rate.rate.scaled > 0,
              let value = ExactDecimal.roundedHalfEven(Int128(ExactDecimal.unit) * Int128(ExactDecimal.unit), dividedBy: Int128(rate.rate.scaled)),
              value.scaled > 0 else { return nil }
        return ExchangeRate(base: rate.quote, quote: rate.base, rate: value, time: rate.time, source: rate.source)
    }
}
