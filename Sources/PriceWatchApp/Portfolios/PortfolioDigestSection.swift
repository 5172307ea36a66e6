import PriceWatchConfig
import PriceWatchCore
import PriceWatchStore

/// The portfolios of `portfolios.d` in a digest: each one's value, unrealised profit and day
/// change in its home currency at the latest recorded prices, as `pricewatch portfolio` computes
/// them without fetching rates (positions in other currencies are counted as not valued);
/// nothing when there is no portfolio. A price recorded within the digest's period counts: a
/// digest after the close shows the closing prices.
struct PortfolioDigestSection: DigestSection {
    let configPath: String
    let store: SQLiteAlertStore

    func content(for window: Range<Timestamp>) async throws -> DigestSectionContent? {
        let portfolios = PortfolioReader.load(mainFile: configPath).portfolios
        guard !portfolios.isEmpty else { return nil }
        var prices: [String: PortfolioValuation.Price] = [:]
        for (key, quote) in try await store.latestQuoteDetails() where prices[key.symbol].map({ $0.time < quote.time }) ?? true {
            prices[key.symbol] = PortfolioValuation.Price(price: quote.price, previousClose: quote.previousClose, currency: quote.currency,
                                                          time: quote.time, provider: key.provider)
        }
        let now = window.upperBound
        let lines = portfolios.map { portfolio in
            let period = window.upperBound.milliseconds - window.lowerBound.milliseconds
            let valuation = PortfolioValuation.value(portfolio, prices: prices, now: now, staleAfterMilliseconds: period) { from, to in
                from == to ? ExchangeRate(base: from, quote: to, rate: ExactDecimal(scaled: ExactDecimal.unit), time: now, source: "identity") : nil
            }
            let home = valuation.currency
            let left = valuation.positions.filter { $0.excluded != nil && $0.quantity.scaled != 0 }.count
            return "\(portfolio.name): value \(PortfolioRendering.money(valuation.totalValue, home)) \(home), "
                + "unrealised \(PortfolioRendering.money(valuation.totalUnrealised, home)), day \(PortfolioRendering.money(valuation.totalDayChange, home))"
                + (left == 0 ? "" : " (\(left) positions not valued: see pricewatch portfolio)")
        }
        return DigestSectionContent(title: "Portfolios", lines: lines)
    }
}
