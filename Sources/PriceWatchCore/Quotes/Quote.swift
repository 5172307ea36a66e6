/// One price observation for one symbol, as a provider reported it.
///
/// `time` is the provider's timestamp for the price (not the time it was fetched). Every field
/// but `symbol`, `price` and `time` is optional, since services differ in what they give.
public struct Quote: Sendable, Hashable {
    public var symbol: String
    public var price: ExactDecimal
    public var time: Timestamp
    public var previousClose: ExactDecimal?
    public var currency: String?
    public var exchange: String?
    public var marketState: String?
    /// The IANA time zone of the exchange (`America/New_York`), when the provider gives it.
    public var exchangeTimeZone: String?
    /// The volume traded so far in the quote's trading day (a running total that starts
    /// again each day), when the provider reports one: Yahoo's `regularMarketVolume`, Twelve
    /// Data's `volume`, Kraken's volume of today. Services that report a rolling 24-hour volume
    /// leave it nil. The engine turns its growth into bars' volumes.
    public var dayVolume: ExactDecimal?

    public init(symbol: String, price: ExactDecimal, time: Timestamp, previousClose: ExactDecimal? = nil,
                currency: String? = nil, exchange: String? = nil, marketState: String? = nil,
                exchangeTimeZone: String? = nil, dayVolume: ExactDecimal? = nil) {
        self.symbol = symbol
        self.price = price
        self.time = time
        self.previousClose = previousClose.flatMap { $0.isPositive ? $0 : nil }
        self.currency = currency
        self.exchange = exchange
        self.marketState = marketState
        self.exchangeTimeZone = exchangeTimeZone
        self.dayVolume = dayVolume.flatMap { $0.scaled >= 0 ? $0 : nil }
    }
}
