/// The form providers give currency pairs as symbols: `EURUSD=X` is the price of one euro in
/// US dollars (Yahoo's form, which the replay provider's files use too).
///
/// Portfolio rules watch these symbols for the rates they need, and `pricewatch portfolio`
/// takes the recorded ones as rates (docs/currencies.md).
public struct CurrencyPairSymbol: Sendable, Hashable {
    /// The currency one unit of which is priced (`EUR`).
    public var base: String
    /// The currency the price is in (`USD`).
    public var quote: String

    public init(base: String, quote: String) {
        self.base = base
        self.quote = quote
    }

    /// Reads `EURUSD=X`; nil for any other symbol.
    public init?(symbol: String) {
        let scalars = Array(symbol.unicodeScalars)
        guard scalars.count == 8, symbol.hasSuffix("=X"),
              scalars[0..<6].allSatisfy({ $0.value >= 65 && $0.value <= 90 }) else { return nil }
        base = String(String.UnicodeScalarView(scalars[0..<3]))
        quote = String(String.UnicodeScalarView(scalars[3..<6]))
        guard base != quote else { return nil }
    }

    /// `EURUSD=X`.
    public var symbol: String { "\(base)\(quote)=X" }

    /// The rate a quote of this symbol gives, named after the provider that gave it.
    public func rate(from quote: Quote, provider: String) -> ExchangeRate {
        ExchangeRate(base: base, quote: self.quote, rate: quote.price, time: quote.time, source: provider)
    }
}
