/// A symbol's 52-week range: the lowest low and the highest high of its candles over the 52
/// weeks before an instant, and, when the history known starts inside those weeks, where it
/// starts (the range then covers less than 52 weeks, and says so rather than pass for one).
///
/// Pure: the candles (the symbol page's daily history, stored and backfilled) and the instant
/// are given.
public struct YearRange: Sendable, Hashable {
    /// 52 weeks, in milliseconds.
    public static let window: Int64 = 52 * 7 * 86_400_000
    /// How long after the window's start the first candle may start with the history still
    /// covering the window: a market shuts for at most four days in a row (a weekend and a
    /// two-day holiday), the allowance by which `pricewatch history` takes daily candles to
    /// reach a range's start.
    public static let allowance: Int64 = 4 * 86_400_000

    public var low: ExactDecimal
    public var high: ExactDecimal
    /// The start of the first candle when the history starts inside the 52 weeks (so the range
    /// covers less); nil when it covers them.
    public var knownSince: Timestamp?

    public init(low: ExactDecimal, high: ExactDecimal, knownSince: Timestamp? = nil) {
        self.low = low
        self.high = high
        self.knownSince = knownSince
    }

    /// The range of the candles that end within the 52 weeks before `now` and start no later
    /// than it (candles before the window only say the history reaches back that far); nil
    /// when there is none.
    public init?(candles: [Candle], now: Timestamp) {
        let start = now.milliseconds &- Self.window
        var low: ExactDecimal?, high: ExactDecimal?
        var first: Timestamp?
        for candle in candles where candle.time <= now {
            if first.map({ candle.time < $0 }) ?? true { first = candle.time }
            guard candle.time.milliseconds &+ candle.interval.seconds * 1000 > start else { continue }
            low = low.map { min($0, candle.low) } ?? candle.low
            high = high.map { max($0, candle.high) } ?? candle.high
        }
        guard let low, let high, let first else { return nil }
        self.init(low: low, high: high, knownSince: first.milliseconds > start &+ Self.allowance ? first : nil)
    }
}
