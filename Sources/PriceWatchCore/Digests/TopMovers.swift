/// The biggest gainers and losers among watched symbols over a digest's period, by percent
/// change from the last close before the period (the first open in it when there is none)
/// to the last close in it. Symbols with no candle in the period are left out, never shown
/// as unchanged: a digest only states changes it saw.
public struct TopMovers: Sendable, Hashable {
    /// One symbol's change over the period.
    public struct Mover: Sendable, Hashable {
        public var symbol: String
        /// The price the change is measured from.
        public var from: ExactDecimal
        /// The last close in the period.
        public var to: ExactDecimal
        /// `(to - from) / from * 100`, exact to 8 digits (display rounds).
        public var percentChange: ExactDecimal
    }

    /// Rising symbols, biggest rise first (ties by symbol).
    public var gainers: [Mover]
    /// Falling symbols, biggest fall first (ties by symbol).
    public var losers: [Mover]
    /// Watched symbols without a candle in the period, sorted.
    public var withoutData: [String]

    /// At most `count` gainers and `count` losers among `candles` (per symbol, any order)
    /// whose start lies in `period`.
    public init(candles: [String: [Candle]], period: Range<Timestamp>, count: Int) {
        var movers: [Mover] = []
        var missing: [String] = []
        for (symbol, rows) in candles {
            let sorted = rows.sorted { $0.time < $1.time }
            let inside = sorted.filter { period.contains($0.time) }
            guard let first = inside.first, let last = inside.last else {
                missing.append(symbol)
                continue
            }
            let base = sorted.last { $0.time < period.lowerBound }?.close ?? first.open
            guard base.isPositive, let change = last.close.percentChange(from: base, roundedTo: 8) else {
                missing.append(symbol)
                continue
            }
            movers.append(Mover(symbol: symbol, from: base, to: last.close, percentChange: change))
        }
        let limit = max(count, 0)
        gainers = Array(movers.filter { $0.percentChange.isPositive }.sorted {
            ($0.percentChange, $1.symbol) > ($1.percentChange, $0.symbol)
        }.prefix(limit))
        losers = Array(movers.filter { $0.percentChange < .zero }.sorted {
            ($0.percentChange, $0.symbol) < ($1.percentChange, $1.symbol)
        }.prefix(limit))
        withoutData = missing.sorted()
    }
}
