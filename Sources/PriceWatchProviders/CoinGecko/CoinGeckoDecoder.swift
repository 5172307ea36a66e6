import PriceWatchCore

/// Decodes CoinGecko `/api/v3/simple/price` answers: an object keyed by coin id, each an
/// object keyed by currency (`{"bitcoin": {"usd": 67012.5, "usd_24h_change": -1.2,
/// "last_updated_at": 1711356300}}`).
///
/// - The price is the number under the currency, rounded to 8 fractional digits (CoinGecko
///   sends floats).
/// - The previous close is the price 24 hours earlier, from `CUR_24h_change` (percent):
///   `price / (1 + change / 100)`, CoinGecko's rolling day as Binance's `prevClosePrice` is.
/// - The time is `last_updated_at` (epoch seconds), else the answer's `Date` header, else the
///   moment it arrived.
/// - A coin or currency CoinGecko does not know is left out of the answer: `unknownSymbol`.
/// - Errors: `{"status": {"error_code": 429, "error_message": …}}` (with `Retry-After`), or a
///   Cloudflare HTML page: see ``ProviderAnswer/failure(_:endpoint:detail:)``.
public enum CoinGeckoDecoder {
    public static let endpoint = "coingecko simple price"

    /// `{"status": {"error_code", "error_message"}}`.
    struct Failure: Decodable {
        struct Status: Decodable {
            let error_code: JSONField<JSONNumber>?
            let error_message: JSONField<String>?
        }
        let status: Lenient<Status>?
        let error: JSONField<String>?
    }

    static func decode(_ response: HTTPResponse, requested: [String: CoinGeckoPair], received: Timestamp)
        throws(ProviderError) -> [String: Result<Quote, ProviderError>] {
        guard response.status == 200 else {
            throw ProviderAnswer.failure(response, endpoint: endpoint, detail: errorMessage(response))
        }
        let document = try ProviderAnswer.decode([String: Lenient<[String: JSONField<JSONNumber>]>].self, response,
                                                 endpoint: endpoint, expected: "an object of coins")
        let answered = response.header("Date").flatMap(HTTPDate.parse) ?? received
        var answers: [String: Result<Quote, ProviderError>] = [:]
        for (symbol, pair) in requested {
            guard let entry = document[pair.coin]?.value, let field = entry[pair.currency] else {
                answers[symbol] = .failure(ProviderError(.unknownSymbol, "coingecko does not know \(symbol) (coin '\(pair.coin)' in '\(pair.currency)')"))
                continue
            }
            guard let price = ProviderPrice.positive(field.value?.value, fractionDigits: ExactDecimal.scale) else {
                answers[symbol] = .failure(ProviderError(.malformedResponse, "\(endpoint): \(symbol): expected a positive \(pair.currency), found \(field.description)"))
                continue
            }
            let change = entry["\(pair.currency)_24h_change"]?.value?.value
            let previous = change.flatMap { change -> ExactDecimal? in
                guard change.isFinite, change > -100 else { return nil }
                return ProviderPrice.positive(price.doubleValue / (1 + change / 100), fractionDigits: ExactDecimal.scale)
            }
            let updated = entry["last_updated_at"]?.value?.value
            let time = updated.flatMap { $0 > 0 && $0 < 1e11 ? Timestamp(seconds: Int64($0)) : nil } ?? answered
            answers[symbol] = .success(Quote(symbol: symbol, price: price, time: time, previousClose: previous,
                                             currency: pair.currency.uppercased()))
        }
        return answers
    }

    /// The service's own message in an error body.
    static func errorMessage(_ response: HTTPResponse) -> String? {
        guard let failure = ProviderAnswer.decodeIfPossible(Failure.self, response) else { return nil }
        if let message = failure.status?.value?.error_message.text { return message }
        return failure.error.text
    }
}
