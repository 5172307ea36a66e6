import PriceWatchCore

/// Decodes Binance `/api/v3/klines?symbol=…&interval=…&startTime=…&endTime=…` answers: an array
/// of rows `[openTime (ms), "open", "high", "low", "close", "volume", closeTime, …]`, prices
/// as exact decimal strings. A row that is short, has a price that is not a positive decimal,
/// or an inconsistent high and low is dropped. Error bodies are as for tickers
/// (`{"code": -1121, "msg": "Invalid symbol."}` is `unknownSymbol`).
public enum BinanceKlinesDecoder {
    public static let endpoint = "binance klines"

    public static func decode(_ response: HTTPResponse, symbol: String, interval: CandleInterval, from: Timestamp,
                              to: Timestamp) throws(ProviderError) -> [Candle] {
        if BinanceDecoder.rejectsSymbol(response) {
            throw ProviderError(.unknownSymbol, "binance does not list the symbol \(symbol)")
        }
        guard response.status == 200 else {
            let body = ProviderAnswer.decodeIfPossible(BinanceDecoder.Failure.self, response)
            throw ProviderAnswer.failure(response, endpoint: endpoint, detail: body?.msg.text)
        }
        let rows = try ProviderAnswer.decode([Lenient<[ChartValue]>].self, response, endpoint: endpoint,
                                             expected: "an array of klines")
        var candles: [Candle] = []
        for row in rows {
            guard let fields = row.value, fields.count >= 5, let milliseconds = fields[0].integer, milliseconds > 0,
                  case .text = fields[1], case .text = fields[4],
                  let open = fields[1].price, let high = fields[2].price, let low = fields[3].price,
                  let close = fields[4].price else { continue }
            candles.append(Candle(time: Timestamp(milliseconds: milliseconds), interval: interval, open: open, high: high,
                                  low: low, close: close, volume: fields.count > 5 ? fields[5].volume : nil))
        }
        return ChartCandles.kept(candles, from: from, to: to)
    }
}
