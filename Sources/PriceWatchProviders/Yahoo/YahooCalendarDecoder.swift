import PriceWatchCore

/// Decodes Yahoo's `/v10/finance/quoteSummary/SYMBOL?modules=calendarEvents` answer into the
/// company's dated events (``CompanyEvent``, source `yahoo`):
///
/// - `calendarEvents.earnings.earningsDate[]`: one date, or two for an estimated range (the
///   first and the last day); `earningsAverage.raw`: the EPS estimate;
/// - `calendarEvents.exDividendDate` and `dividendDate` (the payment);
///
/// each date as its `fmt` (`2017-05-10`), else its `raw` epoch seconds as a UTC date. An empty
/// object (`{}`) or an empty list is "not known", never a date. A symbol Yahoo does not know
/// (`quoteSummary.error`, HTTP 404 `Not Found`) is `unknownSymbol`; any other error status is the
/// status's error; an answer of another shape is `malformedResponse` naming the field.
public enum YahooCalendarDecoder {
    public static let endpoint = "yahoo calendar"
    /// The source named on the events: `yahoo`.
    public static let source = "yahoo"

    struct Answer: Decodable {
        struct Summary: Decodable {
            struct Failure: Decodable {
                let code: JSONField<String>?
                let description: JSONField<String>?
            }
            let result: Lenient<[Lenient<Result>]>?
            let error: Lenient<Failure>?
        }
        struct Result: Decodable {
            let calendarEvents: Lenient<Calendar>?
        }
        struct Calendar: Decodable {
            struct Earnings: Decodable {
                let earningsDate: Lenient<[Lenient<DateValue>]>?
                let earningsAverage: Lenient<NumberValue>?
            }
            let earnings: Lenient<Earnings>?
            let exDividendDate: Lenient<DateValue>?
            let dividendDate: Lenient<DateValue>?
        }
        struct DateValue: Decodable {
            let raw: JSONField<JSONNumber>?
            let fmt: JSONField<String>?
        }
        struct NumberValue: Decodable {
            let raw: JSONField<JSONNumber>?
        }
        let quoteSummary: Summary?
    }

    /// The events of `symbol` in `response`.
    public static func decode(_ response: HTTPResponse, symbol: String) throws(ProviderError) -> [CompanyEvent] {
        let endpoint = "\(Self.endpoint) for \(symbol)"
        let answer = ProviderAnswer.decodeIfPossible(Answer.self, response)
        if let failure = answer?.quoteSummary?.error?.value, failure.code.text != nil || failure.description.text != nil {
            let said = ControlCharacters.escaped(String((failure.description.text ?? failure.code.text ?? "").prefix(200)))
            if response.status == 404 || failure.code.text == "Not Found" {
                throw ProviderError(.unknownSymbol, "\(endpoint): Yahoo does not know the symbol (\(said))")
            }
            throw ProviderAnswer.failure(response, endpoint: endpoint, detail: said)
        }
        guard response.status == 200 else { throw ProviderAnswer.failure(response, endpoint: endpoint) }
        let document = try ProviderAnswer.decode(Answer.self, response, endpoint: endpoint, expected: "an object with 'quoteSummary'")
        guard let results = document.quoteSummary?.result?.value else {
            throw ProviderError(.malformedResponse, "\(endpoint): expected 'quoteSummary.result' as a list")
        }
        guard let calendar = results.first?.value?.calendarEvents?.value else { return [] }
        var events: [CompanyEvent] = []
        if let earnings = calendar.earnings?.value {
            let dates = (earnings.earningsDate?.value ?? []).compactMap { $0.value.flatMap(date) }.sorted()
            if let first = dates.first {
                let estimate = earnings.earningsAverage?.value?.raw.number.flatMap { ExactDecimal($0, roundedToFractionDigits: 4) }
                events.append(CompanyEvent(symbol: symbol, kind: .earnings, date: first,
                                           lastDate: dates.count > 1 && dates.last != first ? dates.last : nil,
                                           estimate: estimate, source: source))
            }
        }
        if let exDividend = calendar.exDividendDate?.value.flatMap(date) {
            events.append(CompanyEvent(symbol: symbol, kind: .exDividend, date: exDividend, source: source))
        }
        if let payment = calendar.dividendDate?.value.flatMap(date) {
            events.append(CompanyEvent(symbol: symbol, kind: .dividendPayment, date: payment, source: source))
        }
        return events
    }

    /// `fmt` as a date, else `raw` epoch seconds as a UTC date; nil when neither is one (a year
    /// outside 1900-2999 is not taken for a company's date).
    static func date(_ value: Answer.DateValue) -> CivilDate? {
        if let text = value.fmt.text, text.utf8.count == 10, let date = CivilDate(parsing: text), (1900...2999).contains(date.year) {
            return date
        }
        guard let seconds = value.raw.integer, seconds > 0, seconds < 32_503_680_000 else { return nil }
        return CivilDate(utcDateOf: Timestamp(seconds: seconds))
    }
}
