import PriceWatchCore

/// Decodes Nasdaq's `/api/quote/SYMBOL/info` answers (``NasdaqProvider``). The service
/// publishes no documentation; the fields read are those of the recorded answers in
/// `Tests/Fixtures/providers/nasdaq/`:
///
/// - `data.primaryData.lastSalePrice` (`"$1,266.78"`) and `lastTradeTimestamp`
///   (``NasdaqTradeTime``): the price and its time;
/// - `data.keyStats.PreviousClose.value` (`"$267.10"`) and `data.keyStats.Volume.value`
///   (`"2,492,507"`): the previous close and the day's volume;
/// - `data.marketStatus`: `Market Open`, `Pre Market`, `After Hours`, `Market Closed`, given
///   as the market states of every provider (`REGULAR`, `PRE`, `POST`, `CLOSED`);
/// - `status.rCode` and `status.bCodeMessage[].errorMessage`: a symbol Nasdaq does not list
///   answers HTTP 200 with `rCode` 400 (`Symbol not exists.`): an unknown symbol; `data: null`
///   with `rCode` 200 (`Error while calling vendor`) is a transient failure.
///
/// Prices are in US dollars. Nothing else in the answer is trusted: a field of another shape
/// fails only its symbol, with a message naming the field.
public enum NasdaqDecoder {
    public static let endpoint = "nasdaq quote"

    struct Answer: Decodable {
        struct Status: Decodable {
            struct Message: Decodable {
                let code: JSONField<JSONNumber>?
                let errorMessage: JSONField<String>?
            }
            let rCode: JSONField<JSONNumber>?
            let bCodeMessage: Lenient<[Lenient<Message>]>?
        }
        struct Data: Decodable {
            struct Primary: Decodable {
                let lastSalePrice: JSONField<String>?
                let lastTradeTimestamp: JSONField<String>?
            }
            struct Stat: Decodable {
                let value: JSONField<String>?
            }
            struct KeyStats: Decodable {
                let PreviousClose: Lenient<Stat>?
                let Volume: Lenient<Stat>?
            }
            let symbol: JSONField<String>?
            let primaryData: Lenient<Primary>?
            let keyStats: Lenient<KeyStats>?
            let marketStatus: JSONField<String>?
        }
        let data: Lenient<Data>?
        let status: Lenient<Status>?
    }

    /// What an answer says of one symbol.
    enum Outcome {
        case quote(Quote)
        /// Nasdaq does not list it under the asset class asked (its own words).
        case notListed(String)
    }

    /// The quote of `symbol` in `response`; throws when the request as a whole failed.
    static func decode(_ response: HTTPResponse, symbol: String) throws(ProviderError) -> Result<Outcome, ProviderError> {
        guard response.status == 200 else {
            throw ProviderAnswer.failure(response, endpoint: "\(endpoint) for \(symbol)",
                                         detail: ProviderAnswer.decodeIfPossible(Answer.self, response).flatMap(messages))
        }
        let answer = try ProviderAnswer.decode(Answer.self, response, endpoint: "\(endpoint) for \(symbol)", expected: "an object with 'data' and 'status'")
        let said = messages(answer)
        guard let data = answer.data?.value else {
            if answer.status?.value?.rCode.integer == 400 {
                return .success(.notListed(said ?? "rCode 400"))
            }
            throw ProviderError(.transient, "\(endpoint) for \(symbol): no data" + (said.map { ": \($0)" } ?? ""))
        }
        let field = { (name: String, value: String) in
            ProviderError(.malformedResponse, "\(endpoint) for \(symbol): expected \(name), found \(value)")
        }
        guard let primary = data.primaryData?.value else {
            return .failure(field("'primaryData' with a price", "nothing"))
        }
        guard let price = dollars(primary.lastSalePrice.text) else {
            return .failure(field("a positive 'lastSalePrice' such as \"$266.78\"", primary.lastSalePrice.described()))
        }
        guard let text = primary.lastTradeTimestamp.text, let time = NasdaqTradeTime.parse(text) else {
            return .failure(field("'lastTradeTimestamp' such as \"Nov 19, 2019 10:33 AM ET\"", primary.lastTradeTimestamp.described()))
        }
        let stats = data.keyStats?.value
        let volume = stats?.Volume?.value?.value.text.flatMap { ProviderPrice.volume($0.replacingOccurrences(of: ",", with: "")) }
        return .success(.quote(Quote(symbol: symbol, price: price, time: time,
                                     previousClose: dollars(stats?.PreviousClose?.value?.value.text),
                                     currency: "USD", marketState: marketState(data.marketStatus.text),
                                     exchangeTimeZone: "America/New_York", dayVolume: volume)))
    }

    /// What ``decode(_:symbol:)`` made of an answer, for the fuzz target (which cannot reach
    /// the internal outcome).
    public enum FuzzOutcome {
        case quote(Quote)
        case error(String)
        case other
    }

    public static func fuzzDecode(_ response: HTTPResponse, symbol: String) -> FuzzOutcome {
        do {
            switch try decode(response, symbol: symbol) {
            case .success(.quote(let quote)): return .quote(quote)
            case .success(.notListed): return .other
            case .failure(let error): return .error(error.message)
            }
        } catch {
            return .error(error.message)
        }
    }

    /// `"$1,266.78"` as 1266.78; nil unless positive.
    static func dollars(_ text: String?) -> ExactDecimal? {
        guard var text = text?.trimmingCharacters(in: " ") else { return nil }
        if text.hasPrefix("$") { text.removeFirst() }
        return ProviderPrice.positive(text.replacingOccurrences(of: ",", with: ""))
    }

    static func marketState(_ status: String?) -> String? {
        switch status?.lowercased() {
        case "market open": "REGULAR"
        case "pre market", "pre-market": "PRE"
        case "after hours", "after-hours": "POST"
        case "market closed", "closed": "CLOSED"
        default: nil
        }
    }

    /// The service's own error texts (`Symbol not exists.`), joined; nil when it gave none.
    private static func messages(_ answer: Answer) -> String? {
        let texts = (answer.status?.value?.bCodeMessage?.value ?? []).compactMap { $0.value?.errorMessage.text }
        return texts.isEmpty ? nil : ControlCharacters.escaped(texts.joined(separator: "; ").prefix(200).description)
    }
}
