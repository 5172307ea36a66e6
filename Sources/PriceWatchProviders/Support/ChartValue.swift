import PriceWatchCore

/// One element of a chart row as services write it: a number, a decimal string or anything
/// else (null, an object), which is no value. Binance writes prices as strings and times as
/// numbers in one array; Coinbase writes everything as numbers.
enum ChartValue: Decodable {
    case number(Double)
    case text(String)
    case other

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .text(text)
        } else {
            self = .other
        }
    }

    /// An integral number inside `Int64` (a time).
    var integer: Int64? {
        guard case .number(let value) = self, value.rounded(.towardZero) == value, abs(value) < 9.0e15 else { return nil }
        return Int64(value)
    }

    /// A positive price: a decimal string exactly, a number rounded to 8 fractional digits.
    var price: ExactDecimal? {
        switch self {
        case .text(let text): ProviderPrice.positive(text)
        case .number(let value): ProviderPrice.positive(value, fractionDigits: ExactDecimal.scale)
        case .other: nil
        }
    }

    /// A non-negative volume, exactly as for ``price``.
    var volume: ExactDecimal? {
        switch self {
        case .text(let text): ProviderPrice.parse(text).flatMap { $0.scaled >= 0 ? $0 : nil }
        case .number(let value): value >= 0 ? ExactDecimal(value, roundedToFractionDigits: ExactDecimal.scale) : nil
        case .other: nil
        }
    }
}

/// The candles of a chart answer that are real prices, in `from ..< to`, oldest first, one per
/// start (the first of duplicates kept).
enum ChartCandles {
    static func kept(_ candles: [Candle], from: Timestamp, to: Timestamp) -> [Candle] {
        var seen = Set<Timestamp>()
        return candles
            .filter { from <= $0.time && $0.time < to && CandleBuilder.isConsistent($0) }
            .sorted { $0.time < $1.time }
            .filter { seen.insert($0.time).inserted }
    }
}
