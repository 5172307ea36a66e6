import PriceWatchCore

extension BinanceProvider: PriceChartProviding {
    /// Up to 1,000 klines per request (Binance's maximum), following on from the last one
    /// until the range is covered, at most 20 requests.
    public func chart(symbol: String, interval: CandleInterval, from: Timestamp,
                      to: Timestamp) async throws(ProviderError) -> PriceChart {
        var candles: [Candle] = []
        var start = from
        for _ in 0..<20 where start < to {
            let url = "\(baseURL)/api/v3/klines?symbol=\(URLText.encode(symbol.uppercased()))&interval=\(interval.rawValue)"
                + "&startTime=\(start.milliseconds)&endTime=\(to.milliseconds - 1)&limit=1000"
            let request = HTTPRequest(url: url, headers: [HTTPHeader("Accept", "application/json")], timeout: timeout)
            let response = try await ProviderAnswer.send(request, through: transport, endpoint: BinanceKlinesDecoder.endpoint)
            let page = try BinanceKlinesDecoder.decode(response, symbol: symbol, interval: interval, from: start, to: to)
            guard let last = page.last else { break }
            candles += page
            start = Timestamp(milliseconds: last.time.milliseconds + interval.seconds * 1000)
            if page.count < 1000 { break }
        }
        return PriceChart(symbol: symbol, candles: ChartCandles.kept(candles, from: from, to: to))
    }
}
