import PriceWatchCore

/// Decodes Coinbase Exchange `/products/PAIR/candles?granularity=…&start=…&end=…` answers: an
/// array of rows `[time (epoch s), low, high, open, close, volume]`, numbers, newest first. A
/// short row, a price that is not a positive number, or an inconsistent row is dropped.
/// `{"message": "NotFound"}` with HTTP 404 is `unknownSymbol`.
public enum CoinbaseCandlesDecoder {
    public static let endpoint = "coinbase candles"

    struct Failure: Decodable {
        let message: JSONField<String>?
    }

    public static func decode(_ response: HTTPResponse, symbol: String, interval: CandleInterval, from: Timestamp,
                              to: Timestamp) throws(ProviderError) -> [Candle] {
        let detail = ProviderAnswer.decodeIfPossible(Failure.self, response)?.message.text
        if response.status == 404 {
            throw ProviderError(.unknownSymbol, "coinbase does not list the pair \(symbol)\(detail.map { " (\($0))" } ?? "")")
        }
        guard response.status == 200 else {
            throw ProviderAnswer.failure(response, endpoint: endpoint, detail: detail)
        }
        let rows = try ProviderAnswer.decode([Lenient<[ChartValue]>].self, response, endpoint: endpoint,
                                             expected: "an array of candles")
        var candles: [Candle] = []
        for row in rows {
            guard let fields = row.value, fields.count >= 5, let seconds = fields[0].integer, seconds > 0,
                  let low = fields[1].price, let high = fields[2].price, let open = fields[3].price,
                  let close = fields[4].price else { continue }
            candles.append(Candle(time: Timestamp(seconds: seconds), interval: interval, open: open, high: high, low: low,
                                  close: close, volume: fields.count > 5 ? fields[5].volume : nil))
        }
        return ChartCandles.kept(candles, from: from, to: to)
    }
}
