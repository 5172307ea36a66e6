import PriceWatchCore

extension YahooProvider: PriceChartProviding {
    /// One request to `/v8/finance/chart/SYMBOL` with `period1`/`period2` (epoch seconds) and the
    /// interval; regular session only. Yahoo serves one-minute candles for the last days only
    /// and says so in an error, which is passed on.
    public func chart(symbol: String, interval: CandleInterval, from: Timestamp,
                      to: Timestamp) async throws(ProviderError) -> PriceChart {
        let url = "\(baseURL)/v8/finance/chart/\(URLText.encode(symbol))?period1=\(from.seconds)&period2=\(to.seconds)"
            + "&interval=\(YahooChartCandleDecoder.name(interval))&includePrePost=false&events=div%7Csplit"
        let response = try await ProviderAnswer.send(HTTPRequest(url: url, headers: headers, timeout: timeout),
                                                     through: transport, endpoint: YahooChartCandleDecoder.endpoint)
        return try YahooChartCandleDecoder.decode(response, symbol: symbol, interval: interval, from: from, to: to)
    }
}
