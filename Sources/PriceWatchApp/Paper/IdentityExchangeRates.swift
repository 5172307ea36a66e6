import PriceWatchCore

/// An ``ExchangeRateSource`` that knows only that a currency is worth itself: what the paper
/// leaderboard uses until a real rate source is wired in. Accounts in another currency are
/// shown as not convertible, never converted at a guessed rate.
public struct IdentityExchangeRates: ExchangeRateSource {
    public init() {}

    public func rate(from base: String, to quote: String, at instant: Timestamp) async -> ExchangeRate? {
        guard base.uppercased() == quote.uppercased() else { return nil }
        return ExchangeRate(base: base, quote: quote, rate: ExactDecimal(scaled: ExactDecimal.unit), time: instant,
                            source: "identity")
    }
}
