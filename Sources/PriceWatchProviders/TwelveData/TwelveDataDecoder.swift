import PriceWatchCore

/// Decodes Twelve Data `/quote?symbol=A,B` answers: one object for one symbol, an object keyed
/// by symbol for several. Prices are decimal strings (`close`, `previous_close`); the time is
/// `last_quote_at`, else `timestamp` (epoch seconds); `is_market_open` gives the market state
/// (`REGULAR` or `CLOSED`).
///
/// Errors are `{"code": 400|404|429|…, "message": …, "status": "error"}`, at the top level for
/// the whole request (often with HTTP 200) or under one symbol's key in a batch: 400 and 404
/// for a symbol are `unknownSymbol`, 429 `rateLimited`, 401 and 403 `permanent`.
public enum TwelveDataDecoder {
    public static let endpoint = "twelvedata quote"

    public static func decode(_ response: HTTPResponse, requested: [String]) throws(ProviderError) -> [String: Result<Quote, ProviderError>] {
        let parsed = ProviderAnswer.looksLikeHTML(response) ? nil : JSONValue.parse(response.body)
        if let parsed, let error = errorEntry(parsed) {
            if (error.code == 400 || error.code == 404), requested.count == 1, let symbol = requested.first {
                return [symbol: .failure(ProviderError(.unknownSymbol, "twelvedata does not know the symbol \(symbol) (\(error.message))"))]
            }
            throw failure(code: error.code, message: error.message, response: response)
        }
        guard response.status == 200 else {
            throw ProviderAnswer.failure(response, endpoint: endpoint, detail: parsed?["message"]?.string)
        }
        let document = try ProviderAnswer.json(response, endpoint: endpoint)
        var answers: [String: Result<Quote, ProviderError>] = [:]
        if requested.count == 1, let symbol = requested.first, document["symbol"] != nil || document["close"] != nil {
            answers[symbol] = quote(document, symbol: symbol)
            return answers
        }
        guard let entries = document.object else {
            throw ProviderError(.malformedResponse, "\(endpoint): expected an object keyed by symbol")
        }
        var byUpperSymbol: [String: JSONValue] = [:]
        for (key, entry) in entries { byUpperSymbol[key.uppercased()] = entry }
        for symbol in requested {
            guard let entry = byUpperSymbol[symbol.uppercased()] else {
                answers[symbol] = .failure(ProviderError(.unknownSymbol, "twelvedata does not know the symbol \(symbol)"))
                continue
            }
            if let error = errorEntry(entry) {
                answers[symbol] = .failure(error.code == 400 || error.code == 404
                    ? ProviderError(.unknownSymbol, "twelvedata does not know the symbol \(symbol) (\(error.message))")
                    : failure(code: error.code, message: error.message, response: response))
                continue
            }
            answers[symbol] = quote(entry, symbol: symbol)
        }
        return answers
    }

    static func quote(_ entry: JSONValue, symbol: String) -> Result<Quote, ProviderError> {
        guard let price = ProviderPrice.positive(entry["close"]?.string) else {
            return .failure(ProviderError(.malformedResponse, "\(endpoint): \(symbol): expected a positive decimal close, found \(YahooQuoteDecoder.describe(entry["close"]))"))
        }
        guard let seconds = entry["last_quote_at"]?.integer ?? entry["timestamp"]?.integer, seconds > 0 else {
            return .failure(ProviderError(.malformedResponse, "\(endpoint): \(symbol): expected a timestamp in epoch seconds, found \(YahooQuoteDecoder.describe(entry["timestamp"]))"))
        }
        var state: String?
        if case .bool(let open)? = entry["is_market_open"] { state = open ? "REGULAR" : "CLOSED" }
        return .success(Quote(symbol: symbol, price: price, time: Timestamp(seconds: seconds),
                              previousClose: ProviderPrice.positive(entry["previous_close"]?.string),
                              currency: entry["currency"]?.string, exchange: entry["exchange"]?.string, marketState: state))
    }

    /// `(code, message)` of an error object (`"status": "error"`).
    static func errorEntry(_ value: JSONValue) -> (code: Int64, message: String)? {
        guard value["status"]?.string == "error" else { return nil }
        return (value["code"]?.integer ?? 0, value["message"]?.string ?? "no message")
    }

    static func failure(code: Int64, message: String, response: HTTPResponse) -> ProviderError {
        let text = "\(endpoint): error \(code): \(message)"
        switch code {
        case 429: return ProviderError(.rateLimited, text, retryAfterSeconds: response.retryAfterSeconds)
        case 500...599: return ProviderError(.transient, text)
        default: return ProviderError(.permanent, text)
        }
    }
}
