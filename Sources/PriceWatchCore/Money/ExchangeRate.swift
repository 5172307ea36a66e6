/// The price of one unit of `base` in `quote` currency (`EUR`→`USD` 1.0842), with where and
/// when it was observed: every converted figure shows the rate's time and source.
public struct ExchangeRate: Sendable, Hashable {
    /// ISO 4217 code of the currency converted from.
    public var base: String
    /// ISO 4217 code of the currency converted to.
    public var quote: String
    /// Units of `quote` per unit of `base`.
    public var rate: ExactDecimal
    /// When the rate was observed (a provider quote's time, or a reference rate's date).
    public var time: Timestamp
    /// Where it came from: a provider name, or the reference-rate source.
    public var source: String

    public init(base: String, quote: String, rate: ExactDecimal, time: Timestamp, source: String) {
        self.base = base
        self.quote = quote
        self.rate = rate
        self.time = time
        self.source = source
    }
}
