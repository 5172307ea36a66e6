/// A quote provider that also serves past candles from a chart endpoint (Yahoo's v8 chart,
/// Binance klines, Coinbase candles): what `pricewatch history` backfills from.
///
/// The contract:
///
/// - ``chart(symbol:interval:from:to:)`` returns the candles whose start lies in `from ..< to`,
///   oldest first, at most one per start. A candle with a missing, null, non-positive or
///   inconsistent price (``CandleBuilder/isConsistent(_:)``) is dropped, never filled in: the
///   answer may be shorter than the range, or empty (a holiday, a symbol with no trades).
/// - Errors are ``ProviderError``s as for quotes (unknown symbol, rate limit, malformed answer).
/// - Network only through the provider's `HTTPTransport`.
public protocol PriceChartProviding: Sendable {
    func chart(symbol: String, interval: CandleInterval, from: Timestamp, to: Timestamp) async throws(ProviderError) -> PriceChart
}

/// What a chart endpoint answered for one symbol.
public struct PriceChart: Sendable, Hashable {
    public var symbol: String
    /// Oldest first; see ``PriceChartProviding``.
    public var candles: [Candle]
    /// The currency of the prices (major unit: pence are converted to pounds), when given.
    public var currency: String?
    /// The close before the chart's first session, when given.
    public var previousClose: ExactDecimal?
    /// The exchange's IANA time zone, when given.
    public var exchangeTimeZone: String?

    public init(symbol: String, candles: [Candle], currency: String? = nil, previousClose: ExactDecimal? = nil,
                exchangeTimeZone: String? = nil) {
        self.symbol = symbol
        self.candles = candles
        self.currency = currency
        self.previousClose = previousClose
        self.exchangeTimeZone = exchangeTimeZone
    }
}
