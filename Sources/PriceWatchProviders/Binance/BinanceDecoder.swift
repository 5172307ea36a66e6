import PriceWatchCore

/// Decodes Binance `/api/v3/ticker/24hr` answers: an array (for `symbols=[…]`) or one object
/// (for `symbol=`) with `symbol`, `lastPrice`, `prevClosePrice` (the last price before the
/// rolling 24-hour window, used as the previous close) and `closeTime` (epoch milliseconds).
/// Prices are exact decimal strings. Error bodies are `{"code": -1121, "msg": "Invalid symbol."}`.
public enum BinanceDecoder {
    public static let endpoint = "binance 24hr ticker"
    /// Binance's error code for a symbol it does not list.
    public static let invalidSymbolCode: Int64 = -1121

    /// Whether the answer rejects a symbol of the request (HTTP 400, code -1121): with several
    /// symbols Binance fails them all, so the provider asks for each alone.
    public static func rejectsSymbol(_ response: HTTPResponse) -> Bool {
        response.status == 400 && JSONValue.parse(response.body)?["code"]?.integer == invalidSymbolCode
    }

    /// The quotes of `requested` (Binance symbols, any case). A requested symbol missing from
    /// the answer, or rejected with -1121 when asked alone, is `unknownSymbol`.
    public static func decode(_ response: HTTPResponse, requested: [String]) throws(ProviderError) -> [String: Result<Quote, ProviderError>] {
        if rejectsSymbol(response) {
            guard requested.count == 1, let symbol = requested.first else {
                throw ProviderError(.unknownSymbol, "\(endpoint): one of \(requested.joined(separator: ", ")) is not a Binance symbol")
            }
            return [symbol: .failure(ProviderError(.unknownSymbol, "binance does not list the symbol \(symbol)"))]
        }
        guard response.status == 200 else {
            let body = JSONValue.parse(response.body)
            let detail = body?["msg"]?.string.map { message in body?["code"]?.integer.map { "\(message) (code \($0))" } ?? message }
            throw ProviderAnswer.failure(response, endpoint: endpoint, detail: detail)
        }
        let document = try ProviderAnswer.json(response, endpoint: endpoint)
        let entries: [JSONValue]
        if let array = document.array {
            entries = array
        } else if document.object != nil, document["symbol"] != nil {
            entries = [document]
        } else {
            throw ProviderError(.malformedResponse, "\(endpoint): expected an array of tickers")
        }
        var bySymbol: [String: JSONValue] = [:]
        for entry in entries {
            if let symbol = entry["symbol"]?.string { bySymbol[symbol.uppercased()] = entry }
        }
        var answers: [String: Result<Quote, ProviderError>] = [:]
        for symbol in requested {
            guard let entry = bySymbol[symbol.uppercased()] else {
                answers[symbol] = .failure(ProviderError(.unknownSymbol, "binance does not list the symbol \(symbol)"))
                continue
            }
            answers[symbol] = quote(entry, symbol: symbol)
        }
        return answers
    }

    static func quote(_ entry: JSONValue, symbol: String) -> Result<Quote, ProviderError> {
        guard let price = ProviderPrice.positive(entry["lastPrice"]?.string) else {
            return .failure(ProviderError(.malformedResponse, "\(endpoint): \(symbol): expected a positive decimal lastPrice, found \(YahooQuoteDecoder.describe(entry["lastPrice"]))"))
        }
        guard let milliseconds = entry["closeTime"]?.integer, milliseconds > 0 else {
            return .failure(ProviderError(.malformedResponse, "\(endpoint): \(symbol): expected closeTime in epoch milliseconds, found \(YahooQuoteDecoder.describe(entry["closeTime"]))"))
        }
        return .success(Quote(symbol: symbol, price: price, time: Timestamp(milliseconds: milliseconds),
                              previousClose: ProviderPrice.positive(entry["prevClosePrice"]?.string)))
    }
}
