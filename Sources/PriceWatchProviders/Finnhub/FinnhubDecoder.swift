import PriceWatchCore

/// Decodes Finnhub answers: `/quote?symbol=` (`c` price, `pc` previous close, `t` epoch
/// seconds; an all-zeros answer is Finnhub's way of saying it does not know the symbol) and
/// `/search?q=`. Errors are `{"error": "…"}` bodies or plain text (429 without a key).
public enum FinnhubDecoder {
    public static let quoteEndpoint = "finnhub quote"
    public static let searchEndpoint = "finnhub search"

    /// The quote of `symbol`; unknown symbols are `.failure(.unknownSymbol)`. Throws when the
    /// request as a whole failed (rate limit, bad key, server error).
    public static func quote(_ response: HTTPResponse, symbol: String) throws(ProviderError) -> Result<Quote, ProviderError> {
        let document = try body(response, endpoint: quoteEndpoint)
        guard document.object != nil else {
            throw ProviderError(.malformedResponse, "\(quoteEndpoint): \(symbol): expected an object")
        }
        let price = document["c"]?.number
        let seconds = document["t"]?.integer
        if price == 0, seconds ?? 0 == 0 {
            return .failure(ProviderError(.unknownSymbol, "finnhub has no quote for the symbol \(symbol) (answered zeros)"))
        }
        // Finnhub publishes at most 4 fractional digits for US equities; floats keep up to 8.
        guard let exact = ProviderPrice.positive(price, fractionDigits: ExactDecimal.scale) else {
            return .failure(ProviderError(.malformedResponse, "\(quoteEndpoint): \(symbol): expected a positive price 'c', found \(YahooQuoteDecoder.describe(document["c"]))"))
        }
        guard let seconds, seconds > 0 else {
            return .failure(ProviderError(.malformedResponse, "\(quoteEndpoint): \(symbol): expected 't' in epoch seconds, found \(YahooQuoteDecoder.describe(document["t"]))"))
        }
        return .success(Quote(symbol: symbol, price: exact, time: Timestamp(seconds: seconds),
                              previousClose: ProviderPrice.positive(document["pc"]?.number, fractionDigits: ExactDecimal.scale)))
    }

    /// The matches of a search answer (`result[]`: `symbol`, `description`, `type`).
    public static func search(_ response: HTTPResponse) throws(ProviderError) -> [SymbolMatch] {
        let document = try body(response, endpoint: searchEndpoint)
        guard let results = document["result"]?.array else {
            throw ProviderError(.malformedResponse, "\(searchEndpoint): expected a result array")
        }
        return results.compactMap { entry in
            guard let symbol = entry["symbol"]?.string else { return nil }
            return SymbolMatch(symbol: symbol, name: entry["description"]?.string, exchange: nil, type: entry["type"]?.string)
        }
    }

    /// The JSON of a 200 answer, or the error of any other: Finnhub's own `error` text is kept.
    /// A 429 without `Retry-After` waits until `X-Ratelimit-Reset` (epoch seconds) when given.
    static func body(_ response: HTTPResponse, endpoint: String) throws(ProviderError) -> JSONValue {
        guard response.status == 200 else {
            let detail = JSONValue.parse(response.body)?["error"]?.string
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
        let document = try ProviderAnswer.json(response, endpoint: endpoint)
        if let message = document["error"]?.string {
            throw ProviderError(.permanent, "\(endpoint): \(message)")
        }
        return document
    }
}
