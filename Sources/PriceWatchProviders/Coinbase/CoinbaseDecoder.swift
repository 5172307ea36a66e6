import PriceWatchCore

/// Decodes Coinbase `/v2/prices/PAIR/spot` answers: `{"data":{"base","currency","amount"}}`
/// with the amount as an exact decimal string.
///
/// The payload has no time: the quote time is the answer's HTTP `Date` header (the server's
/// clock, whole seconds), else `received` (the wall-clock time the answer arrived). An error
/// envelope `{"errors":[{"id","message"}]}` with HTTP 400 or 404 means the pair is unknown.
public enum CoinbaseDecoder {
    public static let endpoint = "coinbase spot price"

    /// `{"data": {…}}` (errors are read separately).
    struct Spot: Decodable {
        struct Price: Decodable {
            let amount: JSONField<String>?
            let currency: JSONField<String>?
        }
        let data: Lenient<Price>?
    }

    /// `{"errors": [{"id": …, "message": …}]}`.
    struct Failure: Decodable {
        struct Item: Decodable {
            let id: JSONField<String>?
            let message: JSONField<String>?
        }
        let errors: Lenient<[Lenient<Item>]>?
    }

    public static func quote(_ response: HTTPResponse, symbol: String, received: Timestamp) throws(ProviderError) -> Result<Quote, ProviderError> {
        guard response.status == 200 else {
            let detail = errorMessage(response)
            if (response.status == 400 || response.status == 404), let detail {
                return .failure(ProviderError(.unknownSymbol, "coinbase does not know the pair \(symbol) (\(detail))"))
            }
            throw ProviderAnswer.failure(response, endpoint: endpoint, detail: detail)
        }
        let document = try ProviderAnswer.decode(Spot.self, response, endpoint: endpoint, expected: "an object")
        guard let data = document.data?.value else {
            throw ProviderError(.malformedResponse, "\(endpoint): \(symbol): expected a data object, found \(errorMessage(response) ?? "none")")
        }
        guard let price = ProviderPrice.positive(data.amount.text) else {
            return .failure(ProviderError(.malformedResponse, "\(endpoint): \(symbol): expected a positive decimal amount, found \(data.amount.described())"))
        }
        let time = response.header("Date").flatMap(HTTPDate.parse) ?? received
        return .success(Quote(symbol: symbol, price: price, time: time, currency: data.currency.text))
    }

    /// The first `errors[].message` (with its `id`) of an error envelope.
    static func errorMessage(_ response: HTTPResponse) -> String? {
        guard let first = ProviderAnswer.decodeIfPossible(Failure.self, response)?.errors?.value?.first?.value else { return nil }
        switch (first.id.text, first.message.text) {
        case (let id?, let message?): return "\(id): \(message)"
        case (nil, let message?): return message
        case (let id?, nil): return id
        default: return nil
        }
    }
}
