/// Open, high, low and close of one symbol over one interval, from stored polls or a provider's
/// chart endpoint. Every price is a real one: a candle with a missing or null price is never
/// made (decoders drop it), so charts, digests and backtests never see an invented price.
public struct Candle: Sendable, Hashable {
    /// The start of the interval.
    public var time: Timestamp
    public var interval: CandleInterval
    public var open: ExactDecimal
    public var high: ExactDecimal
    public var low: ExactDecimal
    public var close: ExactDecimal
    /// Traded volume, when the source gives it.
    public var volume: ExactDecimal?

    public init(time: Timestamp, interval: CandleInterval, open: ExactDecimal, high: ExactDecimal,
                low: ExactDecimal, close: ExactDecimal, volume: ExactDecimal? = nil) {
        self.time = time
        self.interval = interval
        self.open = open
        self.high = high
        self.low = low
        self.close = close
        self.volume = volume
    }
}
