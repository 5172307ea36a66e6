/// One row of the backtest CSV as plain integers (32 bytes, no references), the unit the
/// streaming backtest reads, sorts and spills to temporary files.
///
/// `symbol` and `currency` index the symbol and currency tables of the reader that produced
/// the row (`currency` is -1 for none); prices are scaled by 10^8, `previousClose` is 0 when
/// absent; `time` is in milliseconds since the epoch.
public struct PriceRow: Sendable, Hashable, BitwiseCopyable {
    public var time: Int64
    public var price: Int64
    public var previousClose: Int64
    public var symbol: Int32
    public var currency: Int32

    public init(symbol: Int32, time: Int64, price: Int64, previousClose: Int64, currency: Int32) {
        self.time = time
        self.price = price
        self.previousClose = previousClose
        self.symbol = symbol
        self.currency = currency
    }

    /// The row as a quote, with names from the reader's tables.
    public func quote(symbols: [String], currencies: [String]) -> Quote {
        Quote(symbol: symbols[Int(symbol)],
              price: ExactDecimal(scaled: price),
              time: Timestamp(milliseconds: time),
              previousClose: previousClose > 0 ? ExactDecimal(scaled: previousClose) : nil,
              currency: currency >= 0 ? currencies[Int(currency)] : nil)
    }
}
