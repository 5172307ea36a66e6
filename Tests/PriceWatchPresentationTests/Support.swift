import PriceWatchCore

/// A decimal from a literal that is known to be valid (test tables only).
func dec(_ text: String) -> ExactDecimal {
    guard let value = ExactDecimal(text) else { preconditionFailure("invalid decimal literal in a test table: \(text)") }
    return value
}

/// An instant `ms` milliseconds after the epoch.
func at(_ ms: Int64) -> Timestamp { Timestamp(milliseconds: ms) }

/// A one-minute candle (or of `interval`) at `seconds` after the epoch.
func candle(_ seconds: Int64, _ open: String, _ high: String, _ low: String, _ close: String,
            interval: CandleInterval = .oneMinute) -> Candle {
    Candle(time: Timestamp(seconds: seconds), interval: interval, open: dec(open), high: dec(high), low: dec(low), close: dec(close))
}
