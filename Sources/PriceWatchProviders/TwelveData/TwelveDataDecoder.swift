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

    /// One quote object, or an error object in its place.
    struct Entry: Decodable {
        let symbol: JSONField<String>?
        let close: JSONField<String>?
        let previousClose: JSONField<String>?
        let lastQuoteAt: JSONField<JSONNumber>?
        let timestamp: JSONField<JSONNumber>?
        let isMarketOpen: JSONField<Bool>?
        let volume: JSONField<String>?
        let currency: JSONField<String>?
        let exchange: JSONField<String>?
        let status: JSONField<String>?
        let code: JSONField<JSONNumber>?
        let message: JSONField<String>?

        enum CodingKeys: String, CodingKey {
            case symbol, close, timestamp, volume, currency, exchange, status, code, message
            case previousClose = "previous_close", lastQuoteAt = "last_quote_at", isMarketOpen = "is_market_open"
        }
    }

    public static func decode(_ response: HTTPResponse, requested: [String]) throws(ProviderError) -> [String: Result<Quote, ProviderError>] {
        let parsed = ProviderAnswer.decodeIfPossible(Entry.self, response)
        if let parsed, let error = errorEntry(parsed) {
            if (error.code == 400 || error.code == 404), requested.count == 1, let symbol = requested.first {
                return [symbol: .failure(ProviderError(.unknownSymbol, "twelvedata does not know the symbol \(symbol) (\(error.message))"))]
            }
            throw failure(code: error.code, message: error.message, response: response)
        }
        guard response.status == 200 else {
            throw ProviderAnswer.failure(response, endpoint: endpoint, detail: parsed?.message.text)
        }
        let document: Entry
        if let parsed {
            document = parsed
        } else {
            // Not JSON of that shape: say what it was.
            document = try ProviderAnswer.decode(Entry.self, response, endpoint: endpoint, expected: "an object keyed by symbol")
        }
        var answers: [String: Result<Quote, ProviderError>] = [:]
        if requested.count == 1, let symbol = requested.first, document.symbol != nil || document.close != nil {
            answers[symbol] = quote(document, symbol: symbol)
            return answers
        }
        let entries = try ProviderAnswer.decode([String: Lenient<Entry>].self, response, endpoint: endpoint,
                                                expected: "an object keyed by symbol")
        var byUpperSymbol: [String: Entry] = [:]
        for (key, entry) in entries {
            if let entry = entry.value { byUpperSymbol[key.uppercased()] = entry }
        }
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

    static func quote(_ entry: Entry, symbol: String) -> Result<Quote, ProviderError> {
        guard let price = ProviderPrice.positive(entry.close.text) else {
            return .failure(ProviderError(.malformedResponse, "\(endpoint): \(symbol): expected a positive decimal close, found \(entry.close.described())"))
        }
        guard let seconds = entry.lastQuoteAt.integer ?? entry.timestamp.integer, seconds > 0 else {
            return .failure(ProviderError(.malformedResponse, "\(endpoint): \(symbol): expected a timestamp in epoch seconds, found \(entry.timestamp.described())"))
        }
        let state = entry.isMarketOpen?.value.map { $0 ? "REGULAR" : "CLOSED" }
        return .success(Quote(symbol: symbol, price: price, time: Timestamp(seconds: seconds),
                              previousClose: ProviderPrice.positive(entry.previousClose.text),
                              currency: entry.currency.text, exchange: entry.exchange.text, marketState: state,
                              dayVolume: ProviderPrice.volume(entry.volume.text)))
    }

    /// `(code, message)` of an error object (`"status": "error"`).
    static func errorEntry(_ entry: Entry) -> (code: Int64, message: String)? {
        guard entry.status.text == "error" else { return nil }
        return (entry.code.integer ?? 0, entry.message.text ?? "no message")
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
