import PriceWatchCore

extension CoinbaseProvider: PriceChartProviding {
    /// Coinbase Exchange's public candles (`https://api.exchange.coinbase.com`, or `base_url`
    /// when one is set), 300 candles per request at most, windows of 300 intervals until the
    /// range is covered, at most 20 requests. Granularity in seconds: 60, 300, 3600, 86400.
    public func chart(symbol: String, interval: CandleInterval, from: Timestamp,
                      to: Timestamp) async throws(ProviderError) -> PriceChart {
        var candles: [Candle] = []
        var start = from
        let window = 300 * interval.seconds * 1000
        for _ in 0..<20 where start < to {
            let end = Timestamp(milliseconds: min(to.milliseconds, start.milliseconds + window))
            let url = "\(exchangeBaseURL)/products/\(URLText.encode(symbol.uppercased()))/candles?granularity=\(interval.seconds)"
                + "&start=\(URLText.encode(start.rfc3339))&end=\(URLText.encode(end.rfc3339))"
            let request = HTTPRequest(url: url, headers: [HTTPHeader("Accept", "application/json")], timeout: timeout)
            let response = try await ProviderAnswer.send(request, through: transport, endpoint: CoinbaseCandlesDecoder.endpoint)
            candles += try CoinbaseCandlesDecoder.decode(response, symbol: symbol, interval: interval, from: start, to: end)
            start = end
        }
        return PriceChart(symbol: symbol, candles: ChartCandles.kept(candles, from: from, to: to))
    }
}

extension CoinbaseProvider {
    /// Coinbase Exchange's public market data host (candles live there, not on the v2 API).
    public static let defaultExchangeBaseURL = "https://api.exchange.coinbase.com"

    /// The candles host: Coinbase Exchange, or `base_url` when one is set (a mirror or a test
    /// server serves both).
    var exchangeBaseURL: String { baseURL == Self.defaultBaseURL ? Self.defaultExchangeBaseURL : baseURL }
}
