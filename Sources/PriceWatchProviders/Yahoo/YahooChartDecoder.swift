import PriceWatchCore

/// Decodes Yahoo Finance `/v8/finance/chart/SYMBOL` answers: the one-symbol fallback when the
/// v7 batch fails.
///
/// The quote is the chart's `meta`: `regularMarketPrice` at `regularMarketTime`, rounded to
/// `priceHint`; the previous close is `meta.previousClose`, else `chartPreviousClose` (the
/// close before the chart's range, which for `range=1d` is the previous session's close). The
/// chart has no market state: it is derived from `currentTradingPeriod` at `now` (`PRE`,
/// `REGULAR`, `POST`, else `CLOSED`). HTTP 404 (`No data found, symbol may be delisted`) is
/// `unknownSymbol`.
public enum YahooChartDecoder {
    public static let endpoint = "yahoo v8 chart"

    public static func decode(_ response: HTTPResponse, symbol: String, now: Timestamp) -> Result<Quote, ProviderError> {
        do throws(ProviderError) {
            return .success(try quote(response, symbol: symbol, now: now))
        } catch {
            return .failure(error)
        }
    }

    static func quote(_ response: HTTPResponse, symbol: String, now: Timestamp) throws(ProviderError) -> Quote {
        let detail = YahooErrorDecoder.description(response)
        if response.status == 404 || (response.status == 200 && detail?.lowercased().contains("no data found") == true) {
            throw ProviderError(.unknownSymbol, "yahoo does not know the symbol \(symbol)\(detail.map { " (\($0))" } ?? "")")
        }
        guard response.status == 200 else {
            throw ProviderAnswer.failure(response, endpoint: endpoint, detail: detail)
        }
        let document = try ProviderAnswer.decode(YahooWire.ChartAnswer.self, response, endpoint: endpoint, expected: "an object")
        guard let meta = document.chart?.value?.result?.value?.first?.value?.meta?.value else {
            throw ProviderError(.malformedResponse, "\(endpoint): \(symbol): expected chart.result[0].meta, found \(detail ?? "none")")
        }
        let prices = YahooPrices(currency: meta.currency.text, priceHint: meta.priceHint.integer)
        guard let price = prices.price(meta.regularMarketPrice.number) else {
            throw ProviderError(.malformedResponse, "\(endpoint): \(symbol): expected a positive regularMarketPrice, found \(meta.regularMarketPrice.described())")
        }
        guard let seconds = meta.regularMarketTime.integer, seconds > 0 else {
            throw ProviderError(.malformedResponse, "\(endpoint): \(symbol): expected regularMarketTime in epoch seconds, found \(meta.regularMarketTime.described())")
        }
        let previousClose = prices.price(meta.previousClose.number) ?? prices.price(meta.chartPreviousClose.number)
        return Quote(symbol: symbol, price: price, time: Timestamp(seconds: seconds), previousClose: previousClose,
                     currency: prices.currency, exchange: meta.exchangeName.text,
                     marketState: marketState(meta.currentTradingPeriod, at: now),
                     exchangeTimeZone: meta.exchangeTimezoneName.text,
                     dayVolume: ProviderPrice.volume(meta.regularMarketVolume.number))
    }

    /// `PRE`, `REGULAR` or `POST` when `now` falls in that period of `currentTradingPeriod`,
    /// `CLOSED` otherwise; `nil` when the chart gives no periods.
    static func marketState(_ periods: Lenient<YahooWire.TradingPeriods>?, at now: Timestamp) -> String? {
        guard let periods = periods?.value else { return nil }
        let seconds = now.seconds
        for (period, state) in [(periods.regular, "REGULAR"), (periods.pre, "PRE"), (periods.post, "POST")] {
            if let period = period?.value, let start = period.start.integer, let end = period.end.integer,
               start <= seconds, seconds < end {
                return state
            }
        }
        return "CLOSED"
    }
}
