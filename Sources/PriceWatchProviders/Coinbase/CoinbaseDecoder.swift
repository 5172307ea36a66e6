import PriceWatchCore

/// Decodes Coinbase `/v2/prices/PAIR/spot` answers: `{"data":{"base","currency","amount"}}`
/// with the amount as an exact decimal string.
///
/// The payload has no time: the quote time is the answer's HTTP `Date` header (the server's
/// clock, whole seconds), else `received` (the wall-clock time the answer arrived). An error
/// envelope `{"errors":[{"id","message"}]}` with HTTP 400 or 404 means the pair is unknown.
public enum CoinbaseDecoder {
    public static let endpoint = "coinbase spot price"

    public static func quote(_ response: HTTPResponse, symbol: String, received: Timestamp) throws(ProviderError) -> Result<Quote, ProviderError> {
        guard response.status == 200 else {
            let detail = errorMessage(response)
            if (response.status == 400 || response.status == 404), let detail {
                return .failure(ProviderError(.unknownSymbol, "coinbase does not know the pair \(symbol) (\(detail))"))
            }
            throw ProviderAnswer.failure(response, endpoint: endpoint, detail: detail)
        }
        let document = try ProviderAnswer.json(response, endpoint: endpoint)
        guard let data = document["data"], data.object != nil else {
            throw ProviderError(.malformedResponse, "\(endpoint): \(symbol): expected a data object, found \(errorMessage(response) ?? "none")")
        }
        guard let price = ProviderPrice.positive(data["amount"]?.string) else {
            return .failure(ProviderError(.malformedResponse, "\(endpoint): \(symbol): expected a positive decimal amount, found \(YahooQuoteDecoder.describe(data["amount"]))"))
        }
        let time = response.header("Date").flatMap(HTTPDate.parse) ?? received
        return .success(Quote(symbol: symbol, price: price, time: time, currency: data["currency"]?.string))
    }

    /// The first `errors[].message` (with its `id`) of an error envelope.
    static func errorMessage(_ response: HTTPResponse) -> String? {
        guard let first = JSONValue.parse(response.body)?["errors"]?.array?.first else { return nil }
        let message = first["message"]?.string
        let id = first["id"]?.string
        switch (id, message) {
        case (let id?, let message?): return "\(id): \(message)"
        case (nil, let message?): return message
        case (let id?, nil): return id
        default: return nil
        }
    }
}
