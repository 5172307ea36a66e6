/// The arithmetic of candles: which interval a time falls in, and coarser candles from finer
/// ones. Pure; the history recorder, the store's reads and the chart all use it.
///
/// Intervals are aligned to the Unix epoch in UTC: a `5m` candle starts at a multiple of five
/// minutes, a `1d` candle at midnight UTC (a provider's own daily candles keep the time the
/// provider gave them, usually the session's open).
public enum CandleBuilder {
    /// The start of the `interval` that holds `time`.
    public static func start(of time: Timestamp, interval: CandleInterval) -> Timestamp {
        let width = interval.seconds * 1000
        let milliseconds = time.milliseconds
        let quotient = milliseconds / width
        let floored = milliseconds % width < 0 ? quotient - 1 : quotient
        return Timestamp(milliseconds: floored * width)
    }

    /// `candles` merged into candles of `interval`, oldest first: each takes the open of its
    /// first part, the close of its last, the highest high and the lowest low; its volume is the
    /// sum when every part has one, else nil. Parts are taken in time order whatever their
    /// order in `candles`.
    public static func aggregate(_ candles: [Candle], to interval: CandleInterval) -> [Candle] {
        var merged: [Candle] = []
        for candle in candles.sorted(by: { $0.time < $1.time }) {
            let start = start(of: candle.time, interval: interval)
            if var last = merged.last, last.time == start {
                last.high = max(last.high, candle.high)
                last.low = min(last.low, candle.low)
                last.close = candle.close
                last.volume = sum(last.volume, candle.volume)
                merged[merged.count - 1] = last
            } else {
                merged.append(Candle(time: start, interval: interval, open: candle.open, high: candle.high,
                                     low: candle.low, close: candle.close, volume: candle.volume))
            }
        }
        return merged
    }

    /// Whether a candle's prices are consistent: all positive, low ≤ open, close ≤ high.
    /// Decoders drop candles that are not.
    public static func isConsistent(_ candle: Candle) -> Bool {
        candle.low.isPositive && candle.low <= candle.high
            && (candle.low...candle.high).contains(candle.open) && (candle.low...candle.high).contains(candle.close)
    }

    private static func sum(_ left: ExactDecimal?, _ right: ExactDecimal?) -> ExactDecimal? {
        guard let left, let right else { return nil }
        let (total, overflow) = left.scaled.addingReportingOverflow(right.scaled)
        return overflow ? nil : ExactDecimal(scaled: total)
    }
}
