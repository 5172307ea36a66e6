import PriceWatchCore

/// Decodes Binance `/api/v3/ticker/24hr` answers: an array (for `symbols=[…]`) or one object
/// (for `symbol=`) with `symbol`, `lastPrice`, `prevClosePrice` (the last price before the
/// rolling 24-hour window, used as the previous close) and `closeTime` (epoch milliseconds).
/// Prices are exact decimal strings. Error bodies are `{"code": -1121, "msg": "Invalid symbol."}`.
public enum BinanceDecoder {
    public static let endpoint = "binance 24hr ticker"
    /// Binance's error code for a symbol it does not list.
    public static let invalidSymbolCode: Int64 = -1121

    /// One ticker: the fields the decoder reads.
    struct Ticker: Decodable {
        let symbol: JSONField<String>?
        let lastPrice: JSONField<String>?
        let prevClosePrice: JSONField<String>?
        let closeTime: JSONField<JSONNumber>?
    }

    /// The answer: an array of tickers, or one ticker when one symbol was asked with `symbol=`.
    struct Tickers: Decodable {
        let tickers: [Ticker]

        init(from decoder: any Decoder) throws {
            if var list = try? decoder.unkeyedContainer() {
                var tickers: [Ticker] = []
                tickers.reserveCapacity(list.count ?? 0)
                while !list.isAtEnd {
                    if let ticker = try list.decode(Lenient<Ticker>.self).value { tickers.append(ticker) }
                }
                self.tickers = tickers
            } else {
                let one = try Ticker(from: decoder)
                guard one.symbol != nil else {
                    throw DecodingError.typeMismatch(Ticker.self, .init(codingPath: [], debugDescription: "an object without a symbol"))
                }
                tickers = [one]
            }
        }
    }

    /// `{"code": -1121, "msg": "Invalid symbol."}`.
    struct Failure: Decodable {
        let code: JSONField<JSONNumber>?
        let msg: JSONField<String>?
    }

    /// Whether the answer rejects a symbol of the request (HTTP 400, code -1121): with several
    /// symbols Binance fails them all, so the provider asks for each alone.
    public static func rejectsSymbol(_ response: HTTPResponse) -> Bool {
        response.status == 400 && ProviderAnswer.decodeIfPossible(Failure.self, response)?.code.integer == invalidSymbolCode
    }

    /// The quotes of `requested` (Binance symbols, any case). A requested symbol missing from
    /// the answer, or rejected with -1121 when asked alone, is `unknownSymbol`.
    public static func decode(_ response: HTTPResponse, requested: [String]) throws(ProviderError) -> [String: Result<Quote, ProviderError>] {
        try decode(response, requested: requested, scanning: true)
    }

    /// `scanning: false` decodes every answer the general way (for the tests that hold the
    /// scanner to it).
    package static func decode(_ response: HTTPResponse, requested: [String],
                       scanning: Bool) throws(ProviderError) -> [String: Result<Quote, ProviderError>] {
        if rejectsSymbol(response) {
            guard requested.count == 1, let symbol = requested.first else {
                throw ProviderError(.unknownSymbol, "\(endpoint): one of \(requested.joined(separator: ", ")) is not a Binance symbol")
            }
            return [symbol: .failure(ProviderError(.unknownSymbol, "binance does not list the symbol \(symbol)"))]
        }
        guard response.status == 200 else {
            let body = ProviderAnswer.decodeIfPossible(Failure.self, response)
            let detail = body?.msg.text.map { message in body?.code.integer.map { "\(message) (code \($0))" } ?? message }
            throw ProviderAnswer.failure(response, endpoint: endpoint, detail: detail)
        }
        let entries: [Ticker]
        if scanning, let scanned = ProviderAnswer.scanned(response, Tickers.scanned) {
            entries = scanned
        } else {
            entries = try ProviderAnswer.decode(Tickers.self, response, endpoint: endpoint, expected: "an array of tickers").tickers
        }
        var bySymbol: [String: Ticker] = [:]
        bySymbol.reserveCapacity(entries.count)
        for entry in entries {
            if let symbol = entry.symbol.text { bySymbol[UppercaseText.uppercased(symbol)] = entry }
        }
        var answers: [String: Result<Quote, ProviderError>] = [:]
        answers.reserveCapacity(requested.count)
        for symbol in requested {
            guard let entry = bySymbol[UppercaseText.uppercased(symbol)] else {
                answers[symbol] = .failure(ProviderError(.unknownSymbol, "binance does not list the symbol \(symbol)"))
                continue
            }
            answers[symbol] = quote(entry, symbol: symbol)
        }
        return answers
    }

    static func quote(_ entry: Ticker, symbol: String) -> Result<Quote, ProviderError> {
        guard let price = ProviderPrice.positive(entry.lastPrice.text) else {
            return .failure(ProviderError(.malformedResponse, "\(endpoint): \(symbol): expected a positive decimal lastPrice, found \(entry.lastPrice.described())"))
        }
        guard let milliseconds = entry.closeTime.integer, milliseconds > 0 else {
            return .failure(ProviderError(.malformedResponse, "\(endpoint): \(symbol): expected closeTime in epoch milliseconds, found \(entry.closeTime.described())"))
        }
        return .success(Quote(symbol: symbol, price: price, time: Timestamp(milliseconds: milliseconds),
                              previousClose: ProviderPrice.positive(entry.prevClosePrice.text)))
    }
}
