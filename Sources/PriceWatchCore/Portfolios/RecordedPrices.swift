/// The quotes the daemon recorded, as a valuation's inputs: the newest price of each symbol,
/// whichever provider gave it, and the currency pairs among them (`USDEUR=X`) as rates. What
/// `pricewatch portfolio` and the digests' portfolio reports value portfolios with.
public struct RecordedPrices: Sendable {
    /// By symbol.
    public var prices: [String: PortfolioValuation.Price] = [:]
    /// The newest quote of each currency pair, as a rate named after its provider.
    public var rates = ExchangeRateBook()

    /// From the newest stored quote of every provider and symbol.
    public init(_ quotes: [QuoteSource: Quote]) {
        for (key, quote) in quotes where prices[key.symbol].map({ $0.time < quote.time }) ?? true {
            prices[key.symbol] = PortfolioValuation.Price(price: quote.price, previousClose: quote.previousClose,
                                                          currency: quote.currency, time: quote.time, provider: key.provider)
        }
        for (key, quote) in quotes {
            guard let pair = CurrencyPairSymbol(symbol: key.symbol), prices[key.symbol]?.time == quote.time else { continue }
            rates.add(pair.rate(from: quote, provider: key.provider))
        }
    }
}
