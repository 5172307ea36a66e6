import PriceWatchCore

/// Decodes Kraken `/0/public/Ticker?pair=PAIR` answers for one pair: `result` holds one entry
/// under Kraken's own name for the pair (`XXBTZEUR` for `XBTEUR`), with `c[0]` the last trade
/// price and `o` today's opening price (00:00 UTC), used as the previous close. Prices are
/// decimal strings.
///
/// The payload has no time: the quote time is the answer's HTTP `Date` header, else
/// `received`. Errors are in `error: ["EQuery:Unknown asset pair"]`, usually with HTTP 200:
/// an unknown pair is `unknownSymbol`, `EAPI:Rate limit exceeded` and `EGeneral:Too many
/// requests` are `rateLimited`, `EService:…` transient, others permanent.
public enum KrakenDecoder {
    public static let endpoint = "kraken ticker"

    public static func quote(_ response: HTTPResponse, symbol: String, received: Timestamp) throws(ProviderError) -> Result<Quote, ProviderError> {
        let parsed = ProviderAnswer.looksLikeHTML(response) ? nil : JSONValue.parse(response.body)
        if let messages = parsed?["error"]?.array?.compactMap(\.string), let first = messages.first {
            if messages.contains(where: { $0.hasPrefix("EQuery:Unknown asset pair") }) {
                return .failure(ProviderError(.unknownSymbol, "kraken does not know the pair \(symbol) (\(first))"))
            }
            let text = "\(endpoint): \(messages.joined(separator: ", "))"
            if first.contains("Rate limit") || first.contains("Too many requests") {
                throw ProviderError(.rateLimited, text, retryAfterSeconds: response.retryAfterSeconds)
            }
            throw ProviderError(first.hasPrefix("EService:") ? .transient : .permanent, text)
        }
        guard response.status == 200 else { throw ProviderAnswer.failure(response, endpoint: endpoint) }
        let document = try ProviderAnswer.json(response, endpoint: endpoint)
        guard let results = document["result"]?.object, results.count == 1, let entry = results.values.first else {
            throw ProviderError(.malformedResponse, "\(endpoint): \(symbol): expected one pair in result")
        }
        guard let price = ProviderPrice.positive(entry["c"]?.array?.first?.string) else {
            return .failure(ProviderError(.malformedResponse, "\(endpoint): \(symbol): expected a positive decimal c[0], found \(YahooQuoteDecoder.describe(entry["c"]?.array?.first))"))
        }
        let time = response.header("Date").flatMap(HTTPDate.parse) ?? received
        return .success(Quote(symbol: symbol, price: price, time: time, previousClose: ProviderPrice.positive(entry["o"]?.string)))
    }
}
