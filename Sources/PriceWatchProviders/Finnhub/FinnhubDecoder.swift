import PriceWatchCore

/// Decodes Finnhub answers: `/quote?symbol=` (`c` price, `pc` previous close, `t` epoch
/// seconds; an all-zeros answer is Finnhub's way of saying it does not know the symbol) and
/// `/search?q=`. Errors are `{"error": "…"}` bodies or plain text (429 without a key).
public enum FinnhubDecoder {
    public static let quoteEndpoint = "finnhub quote"
    public static let searchEndpoint = "finnhub search"

    /// `/quote`: the fields the decoder reads (and `error`, which Finnhub may send with 200).
    struct QuoteAnswer: Decodable, ErrorCarrying {
        let c: JSONField<JSONNumber>?
        let t: JSONField<JSONNumber>?
        let pc: JSONField<JSONNumber>?
        let error: JSONField<String>?
    }

    /// `/search`: `result[]` of `symbol`, `description`, `type`.
    struct SearchAnswer: Decodable, ErrorCarrying {
        struct Match: Decodable {
            let symbol: JSONField<String>?
            let description: JSONField<String>?
            let type: JSONField<String>?
        }
        let result: Lenient<[Lenient<Match>]>?
        let error: JSONField<String>?
    }

    /// `{"error": "…"}`.
    struct Failure: Decodable, ErrorCarrying {
        let error: JSONField<String>?
    }

    protocol ErrorCarrying {
        var error: JSONField<String>? { get }
    }

    /// The quote of `symbol`; unknown symbols are `.failure(.unknownSymbol)`. Throws when the
    /// request as a whole failed (rate limit, bad key, server error).
    public static func quote(_ response: HTTPResponse, symbol: String) throws(ProviderError) -> Result<Quote, ProviderError> {
        let document = try body(QuoteAnswer.self, response, endpoint: quoteEndpoint, expected: "an object")
        let price = document.c.number
        let seconds = document.t.integer
        if price == 0, seconds ?? 0 == 0 {
            return .failure(ProviderError(.unknownSymbol, "finnhub has no quote for the symbol \(symbol) (answered zeros)"))
        }
        // Finnhub publishes at most 4 fractional digits for US equities; floats keep up to 8.
        guard let exact = ProviderPrice.positive(price, fractionDigits: ExactDecimal.scale) else {
            return .failure(ProviderError(.malformedResponse, "\(quoteEndpoint): \(symbol): expected a positive price 'c', found \(document.c.described())"))
        }
        guard let seconds, seconds > 0 else {
            return .failure(ProviderError(.malformedResponse, "\(quoteEndpoint): \(symbol): expected 't' in epoch seconds, found \(document.t.described())"))
        }
        return .success(Quote(symbol: symbol, price: exact, time: Timestamp(seconds: seconds),
                              previousClose: ProviderPrice.positive(document.pc.number, fractionDigits: ExactDecimal.scale)))
    }

    /// The matches of a search answer (`result[]`: `symbol`, `description`, `type`).
    public static func search(_ response: HTTPResponse) throws(ProviderError) -> [SymbolMatch] {
        let document = try body(SearchAnswer.self, response, endpoint: searchEndpoint, expected: "an object")
        guard let results = document.result?.value else {
            throw ProviderError(.malformedResponse, "\(searchEndpoint): expected a result array")
        }
        return results.compactMap { entry in
            guard let entry = entry.value, let symbol = entry.symbol.text else { return nil }
            return SymbolMatch(symbol: symbol, name: entry.description.text, exchange: nil, type: entry.type.text)
        }
    }

    /// The typed body of a 200 answer, or the error of any other: Finnhub's own `error` text is
    /// kept. A 429 without `Retry-After` waits until `X-Ratelimit-Reset` (epoch seconds) when given.
    static func body<T: Decodable & ErrorCarrying>(_ type: T.Type, _ response: HTTPResponse, endpoint: String,
                                                    expected: String) throws(ProviderError) -> T {
        guard response.status == 200 else {
            let detail = ProviderAnswer.decodeIfPossible(Failure.self, response)?.error.text
            var error = ProviderAnswer.failure(response, endpoint: endpoint, detail: detail)
            if error.kind == .rateLimited, error.retryAfterSeconds == nil,
               let reset = response.header("X-Ratelimit-Reset").flatMap({ Int64($0) }),
               let date = response.header("Date").flatMap(HTTPDate.parse) {
                // The header is outside data: a nonsense value must not overflow.
                let (wait, overflow) = reset.subtractingReportingOverflow(date.seconds)
                if !overflow { error.retryAfterSeconds = max(0, wait) }
            }
            throw error
        }
        let document = try ProviderAnswer.decode(T.self, response, endpoint: endpoint, expected: expected)
        if let message = document.error.text {
            throw ProviderError(.permanent, "\(endpoint): \(message)")
        }
        return document
    }
}
