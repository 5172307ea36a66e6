import PriceWatchCore

/// Decodes the answers of Nasdaq's public calendars (``NasdaqProvider``'s calendar, `docs/events.md`).
/// The service publishes no documentation; the fields read are those of the recorded answers in
/// `Tests/Fixtures/providers/nasdaq/` (described in `SOURCES.md`):
///
/// - `/api/quote/SYMBOL/dividends?assetclass=stocks`: `data.dividends.rows[]`, newest first, with
///   `exOrEffDate` and `paymentDate` (`MM/DD/YYYY`, or `N/A`), `amount` (`"$0.26"`), `type`
///   (`Cash`) and `currency`: an ex-dividend day and a payment day per cash dividend, with the
///   amount; only the ``dividendRows`` newest rows (the history goes back decades).
/// - `/api/calendar/earnings?date=YYYY-MM-DD`: `data.rows[]` of every company reporting that
///   day, with `symbol`, `time` (`time-pre-market`, `time-after-hours`, `time-not-supplied`)
///   and `epsForecast` (`"$2.35"`, `"($0.12)"` for a loss).
/// - `/api/calendar/splits`: `data.rows[]` of the splits announced, with `symbol`, `ratio`
///   (`"2 : 1"`, or `"8.000%"` for a stock dividend) and `executionDate`; `data: null` with
///   code 1002 (`No record found.`) when none is.
///
/// A row of another shape, without a real date, or with an amount that is not a price is
/// left out (never guessed); `data: null` with `status.rCode` 400 is a symbol Nasdaq does not
/// list. Errors name the endpoint and the symbol or day.
public enum NasdaqCalendarDecoder {
    public static let source = "nasdaq"
    public static let dividendsEndpoint = "nasdaq dividends"
    public static let earningsEndpoint = "nasdaq earnings calendar"
    public static let splitsEndpoint = "nasdaq splits calendar"
    /// The newest dividend rows read (a year of quarterly dividends).
    public static let dividendRows = 4

    struct Status: Decodable {
        struct Message: Decodable {
            let code: JSONField<JSONNumber>?
        }
        let rCode: JSONField<JSONNumber>?
        let bCodeMessage: Lenient<[Lenient<Message>]>?
    }

    struct DividendsAnswer: Decodable {
        struct Row: Decodable {
            let exOrEffDate: JSONField<String>?
            let paymentDate: JSONField<String>?
            let amount: JSONField<String>?
            let type: JSONField<String>?
            let currency: JSONField<String>?
        }
        struct Table: Decodable {
            let rows: Lenient<[Lenient<Row>]>?
        }
        struct Data: Decodable {
            let dividends: Lenient<Table>?
        }
        let data: Lenient<Data>?
        let status: Lenient<Status>?
    }

    struct CalendarAnswer: Decodable {
        struct Row: Decodable {
            let symbol: JSONField<String>?
            let time: JSONField<String>?
            let epsForecast: JSONField<String>?
            let ratio: JSONField<String>?
            let executionDate: JSONField<String>?
        }
        struct Data: Decodable {
            let rows: Lenient<[Lenient<Row>]>?
        }
        let data: Lenient<Data>?
        let status: Lenient<Status>?
    }

    /// What a dividends answer says of a symbol.
    public enum Dividends: Sendable, Equatable {
        case events([CompanyEvent])
        /// Nasdaq does not list the symbol under the asset class asked.
        case notListed
    }

    /// The ex-dividend and payment days of `symbol`'s newest cash dividends.
    public static func dividends(_ response: HTTPResponse, symbol: String) throws(ProviderError) -> Dividends {
        let endpoint = "\(dividendsEndpoint) for \(symbol)"
        guard response.status == 200 else { throw ProviderAnswer.failure(response, endpoint: endpoint) }
        let answer = try ProviderAnswer.decode(DividendsAnswer.self, response, endpoint: endpoint, expected: "an object with 'data' and 'status'")
        guard let data = answer.data?.value else {
            if answer.status?.value?.rCode.integer == 400 { return .notListed }
            throw ProviderError(.transient, "\(endpoint): no data")
        }
        // A company that pays nothing: `dividends` or its rows null.
        let rows = (data.dividends?.value?.rows?.value ?? []).compactMap(\.value)
        var events: [CompanyEvent] = []
        for row in rows.prefix(dividendRows) {
            guard row.type.text.map({ $0.lowercased() == "cash" }) ?? true, let amount = NasdaqDecoder.dollars(row.amount.text) else { continue }
            let currency = row.currency.text.flatMap(currencyCode) ?? "USD"
            for (kind, field) in [(EventKind.exDividend, row.exOrEffDate), (.dividendPayment, row.paymentDate)] {
                guard let date = usDate(field.text), !events.contains(where: { $0.kind == kind && $0.date == date }) else { continue }
                events.append(CompanyEvent(symbol: symbol, kind: kind, date: date, source: source, amount: amount, currency: currency))
            }
        }
        return .events(events.sorted { ($0.date, $0.kind.rawValue) < ($1.date, $1.kind.rawValue) })
    }

    /// The earnings reported on `day` by each company of `symbols` the calendar lists.
    public static func earnings(_ response: HTTPResponse, day: CivilDate, symbols: Set<String>) throws(ProviderError) -> [CompanyEvent] {
        let rows = try calendarRows(response, endpoint: "\(earningsEndpoint) of \(day)")
        var events: [CompanyEvent] = []
        for row in rows {
            guard let symbol = row.symbol.text?.trimmingCharacters(in: " "), symbols.contains(symbol),
                  !events.contains(where: { $0.symbol == symbol }) else { continue }
            events.append(CompanyEvent(symbol: symbol, kind: .earnings, date: day, estimate: earningsPerShare(row.epsForecast.text),
                                       source: source, timing: timing(row.time.text)))
        }
        return events
    }

    /// The splits the calendar lists for each company of `symbols`.
    public static func splits(_ response: HTTPResponse, symbols: Set<String>) throws(ProviderError) -> [CompanyEvent] {
        let rows = try calendarRows(response, endpoint: splitsEndpoint)
        var events: [CompanyEvent] = []
        for row in rows {
            guard let symbol = row.symbol.text?.trimmingCharacters(in: " "), symbols.contains(symbol),
                  let date = usDate(row.executionDate.text),
                  !events.contains(where: { $0.symbol == symbol && $0.date == date }) else { continue }
            events.append(CompanyEvent(symbol: symbol, kind: .split, date: date, source: source,
                                       splitRatio: row.ratio.text.flatMap(SplitRatio.init(parsing:))))
        }
        return events.sorted { ($0.symbol, $0.date) < ($1.symbol, $1.date) }
    }

    private static func calendarRows(_ response: HTTPResponse, endpoint: String) throws(ProviderError) -> [CalendarAnswer.Row] {
        guard response.status == 200 else { throw ProviderAnswer.failure(response, endpoint: endpoint) }
        let answer = try ProviderAnswer.decode(CalendarAnswer.self, response, endpoint: endpoint, expected: "an object with 'data' and 'status'")
        guard let data = answer.data?.value else {
            // `Splits Calendar: No record found.` (code 1002): nothing listed, not a failure.
            let codes = (answer.status?.value?.bCodeMessage?.value ?? []).compactMap { $0.value?.code.integer }
            if codes.contains(1002) { return [] }
            throw ProviderError(.transient, "\(endpoint): no data" + (answer.status?.value?.rCode.integer.map { " (rCode \($0))" } ?? ""))
        }
        // A day without reports: `rows` null.
        return (data.rows?.value ?? []).compactMap(\.value)
    }

    /// `MM/DD/YYYY` as a date; nil for `N/A` and anything else.
    static func usDate(_ text: String?) -> CivilDate? {
        guard let text, text.utf8.count == 10 else { return nil }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 2, parts[1].count == 2, parts[2].count == 4,
              parts.allSatisfy({ $0.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }),
              let month = Int(parts[0]), let day = Int(parts[1]), let year = Int(parts[2]),
              (1900...2999).contains(year) else { return nil }
        return CivilDate(year: year, month: month, day: day)
    }

    /// `"$2.35"` as 2.35, `"($0.12)"` as -0.12; nil for `"N/A"`, `""` and anything else.
    static func earningsPerShare(_ text: String?) -> ExactDecimal? {
        guard var text = text?.trimmingCharacters(in: " "), text.utf8.count <= 24 else { return nil }
        let negative = text.hasPrefix("(") && text.hasSuffix(")")
        if negative { text = String(text.dropFirst().dropLast()) }
        if text.hasPrefix("$") { text.removeFirst() }
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: ".") }),
              let value = ExactDecimal(text) else { return nil }
        return negative ? ExactDecimal(scaled: -value.scaled) : value
    }

    static func timing(_ text: String?) -> EarningsTiming? {
        switch text {
        case "time-pre-market": .beforeOpen
        case "time-after-hours": .afterClose
        default: nil
        }
    }

    /// Three capital letters (`USD`); nil otherwise.
    static func currencyCode(_ text: String) -> String? {
        text.utf8.count == 3 && text.utf8.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) ? text : nil
    }
}
