import PriceWatchCore

/// Decodes Finnhub's earnings calendar, `/calendar/earnings?from=&to=&symbol=`
/// (`earningsCalendar[]`: `date` `YYYY-MM-DD`, `hour` `bmo`/`amc`/`dmh` or empty, `epsEstimate`,
/// `symbol`), into earnings events of source `finnhub`. An entry of another symbol, without a
/// real date, or of another shape is left out (never guessed); an empty list is "not known".
/// Errors are Finnhub's (``FinnhubDecoder``'s rules), named `finnhub calendar for SYMBOL`.
public enum FinnhubCalendarDecoder {
    public static let endpoint = "finnhub calendar"

    struct Answer: Decodable, FinnhubDecoder.ErrorCarrying {
        struct Entry: Decodable {
            let date: JSONField<String>?
            let hour: JSONField<String>?
            let epsEstimate: JSONField<JSONNumber>?
            let symbol: JSONField<String>?
        }
        let earningsCalendar: Lenient<[Lenient<Entry>]>?
        let error: JSONField<String>?
    }

    public static func decode(_ response: HTTPResponse, symbol: String) throws(ProviderError) -> [CompanyEvent] {
        let endpoint = "\(Self.endpoint) for \(symbol)"
        let document = try FinnhubDecoder.body(Answer.self, response, endpoint: endpoint, expected: "an object with 'earningsCalendar'")
        if let error = document.error.text { throw ProviderError(.permanent, "\(endpoint): \(ControlCharacters.escaped(String(error.prefix(200))))") }
        guard let entries = document.earningsCalendar?.value else {
            throw ProviderError(.malformedResponse, "\(endpoint): expected 'earningsCalendar' as a list")
        }
        var events: [CompanyEvent] = []
        for entry in entries.compactMap(\.value) {
            guard entry.symbol.text.map({ $0.uppercased() == symbol.uppercased() }) ?? true,
                  let text = entry.date.text, text.utf8.count == 10, let date = CivilDate(parsing: text),
                  (1900...2999).contains(date.year), !events.contains(where: { $0.date == date }) else { continue }
            let estimate = entry.epsEstimate.number.flatMap { ExactDecimal($0, roundedToFractionDigits: 4) }
            events.append(CompanyEvent(symbol: symbol, kind: .earnings, date: date, estimate: estimate, source: "finnhub",
                                       timing: entry.hour.text.flatMap(EarningsTiming.init(rawValue:))))
        }
        return events.sorted { $0.date < $1.date }
    }
}
