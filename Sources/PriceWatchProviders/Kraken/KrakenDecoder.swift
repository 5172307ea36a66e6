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

    /// `{"error": [...], "result": {"PAIR": {"c": ["price", "volume"], "o": "price", …}}}`.
    struct Answer: Decodable {
        struct Pair: Decodable {
            let c: Lenient<[JSONField<String>]>?
            let o: JSONField<String>?
            /// Volume `[today, last 24 hours]`; today starts at 00:00 UTC.
            let v: Lenient<[JSONField<String>]>?
        }
        let error: Lenient<[JSONField<String>]>?
        let result: Lenient<[String: Lenient<Pair>]>?
    }

    public static func quote(_ response: HTTPResponse, symbol: String, received: Timestamp) throws(ProviderError) -> Result<Quote, ProviderError> {
        let parsed = ProviderAnswer.decodeIfPossible(Answer.self, response)
        let messages = parsed?.error?.value?.compactMap { field -> String? in
            guard let text = field.value, !text.isEmpty else { return nil }
            return text
        } ?? []
        if let first = messages.first {
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
        let document: Answer
        if let parsed {
            document = parsed
        } else {
            // Not JSON of that shape: say what it was.
            document = try ProviderAnswer.decode(Answer.self, response, endpoint: endpoint, expected: "an object")
        }
        guard let results = document.result?.value, results.count == 1, let entry = results.values.first?.value else {
            throw ProviderError(.malformedResponse, "\(endpoint): \(symbol): expected one pair in result")
        }
        let last = entry.c?.value?.first
        guard let price = ProviderPrice.positive(last?.value) else {
            return .failure(ProviderError(.malformedResponse, "\(endpoint): \(symbol): expected a positive decimal c[0], found \(last.described())"))
        }
        let time = response.header("Date").flatMap(HTTPDate.parse) ?? received
        return .success(Quote(symbol: symbol, price: price, time: time, previousClose: ProviderPrice.positive(entry.o.text),
                              dayVolume: ProviderPrice.volume(entry.v?.value?.first?.value)))
    }
}
