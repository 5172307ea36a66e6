import PriceWatchCore

/// Decodes the candles of a Yahoo `/v8/finance/chart/SYMBOL?period1=…&period2=…&interval=…`
/// answer: `timestamp[i]` (epoch seconds, the candle's start) with
/// `indicators.quote[0].{open,high,low,close,volume}[i]`, prices rounded to `meta.priceHint`
/// and converted from minor units (`GBp`) as for quotes.
///
/// A candle with any null or non-positive price is dropped (Yahoo writes `null` for a minute
/// without trades); so is the trailing point Yahoo appends with the current price when it lies
/// outside the requested period. An answer with no `timestamp` (a holiday, a weekend) is an
/// empty chart. HTTP 404 (`No data found, symbol may be delisted`) is `unknownSymbol`.
public enum YahooChartCandleDecoder {
    public static let endpoint = "yahoo v8 chart"

    struct Answer: Decodable {
        struct Chart: Decodable {
            let result: Lenient<[Lenient<Result>]>?
        }
        struct Result: Decodable {
            let meta: Lenient<YahooWire.ChartMeta>?
            let timestamp: Lenient<[ChartValue]>?
            let indicators: Lenient<Indicators>?
        }
        struct Indicators: Decodable {
            let quote: Lenient<[Lenient<Series>]>?
        }
        struct Series: Decodable {
            let open: Lenient<[ChartValue]>?
            let high: Lenient<[ChartValue]>?
            let low: Lenient<[ChartValue]>?
            let close: Lenient<[ChartValue]>?
            let volume: Lenient<[ChartValue]>?
        }
        let chart: Lenient<Chart>?
    }

    public static func decode(_ response: HTTPResponse, symbol: String, interval: CandleInterval, from: Timestamp,
                              to: Timestamp) throws(ProviderError) -> PriceChart {
        let detail = YahooErrorDecoder.description(response)
        if response.status == 404 || (response.status == 200 && detail?.lowercased().contains("no data found") == true) {
            throw ProviderError(.unknownSymbol, "yahoo does not know the symbol \(symbol)\(detail.map { " (\($0))" } ?? "")")
        }
        guard response.status == 200 else {
            throw ProviderAnswer.failure(response, endpoint: endpoint, detail: detail)
        }
        let document = try ProviderAnswer.decode(Answer.self, response, endpoint: endpoint, expected: "an object")
        guard let result = document.chart?.value?.result?.value?.first?.value else {
            throw ProviderError(.malformedResponse, "\(endpoint): \(symbol): expected chart.result[0], found \(detail ?? "none")")
        }
        let meta = result.meta?.value
        let prices = YahooPrices(currency: meta?.currency.text, priceHint: meta?.priceHint.integer)
        let times = result.timestamp?.value ?? []
        let series = result.indicators?.value?.quote?.value?.first?.value
        func column(_ values: Lenient<[ChartValue]>?) -> [ChartValue] { values?.value ?? [] }
        let (opens, highs, lows, closes, volumes) = (column(series?.open), column(series?.high), column(series?.low),
                                                     column(series?.close), column(series?.volume))
        var candles: [Candle] = []
        for (index, time) in times.enumerated() {
            guard let seconds = time.integer, seconds > 0,
                  let open = yahooPrice(opens, index, prices), let high = yahooPrice(highs, index, prices),
                  let low = yahooPrice(lows, index, prices), let close = yahooPrice(closes, index, prices) else { continue }
            let volume = index < volumes.count ? volumes[index].volume : nil
            candles.append(Candle(time: Timestamp(seconds: seconds), interval: interval, open: open, high: high, low: low,
                                  close: close, volume: volume))
        }
        let previousClose = prices.price(meta?.chartPreviousClose.number) ?? prices.price(meta?.previousClose.number)
        return PriceChart(symbol: symbol, candles: ChartCandles.kept(candles, from: from, to: to), currency: prices.currency,
                          previousClose: previousClose, exchangeTimeZone: meta?.exchangeTimezoneName.text)
    }

    private static func yahooPrice(_ values: [ChartValue], _ index: Int, _ prices: YahooPrices) -> ExactDecimal? {
        guard index < values.count, case .number(let value) = values[index] else { return nil }
        return prices.price(value)
    }

    /// Yahoo's name of an interval.
    static func name(_ interval: CandleInterval) -> String {
        switch interval {
        case .oneMinute: "1m"
        case .fiveMinutes: "5m"
        case .oneHour: "60m"
        case .oneDay: "1d"
        }
    }
}
