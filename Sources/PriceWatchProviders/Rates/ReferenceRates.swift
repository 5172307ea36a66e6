import FoundationEssentials
import PriceWatchCore

/// The ECB's euro reference rates, keyless, from the ECB's daily XML or from Frankfurter's
/// JSON (which serves the same rates): base EUR, one business day, published about 16:00 CET.
/// A rate's time is 16:00 Central European Time on its date.
public enum ReferenceRates {
    /// Where the rates come from.
    public enum Source: String, Sendable, CaseIterable {
        case ecb
        case frankfurter

        /// The latest rates.
        public var defaultURL: String {
            switch self {
            case .ecb: "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"
            case .frankfurter: "https://api.frankfurter.app/latest"
            }
        }
    }

    /// Why an answer gave no rates: names the source and what was wrong.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Fetches the latest rates from `source` (at `url`, its default when nil).
    public static func fetch(_ source: Source, url: String? = nil, transport: any HTTPTransport) async throws(Failure) -> [ExchangeRate] {
        let target = url ?? source.defaultURL
        let response: HTTPResponse
        do {
            response = try await transport.send(HTTPRequest(method: .get, url: target, timeout: .seconds(20), maximumResponseBytes: 1 << 20))
        } catch {
            throw Failure(description: "\(source.rawValue): \(error)")
        }
        guard response.status == 200 else {
            throw Failure(description: "\(source.rawValue): expected HTTP 200, found HTTP \(response.status)")
        }
        switch source {
        case .ecb: return try ecb(response.body)
        case .frankfurter: return try frankfurter(response.body)
        }
    }

    /// `<Cube time='2018-06-11'><Cube currency='USD' rate='1.1790'/>...` (single or double quotes).
    public static func ecb(_ body: [UInt8]) throws(Failure) -> [ExchangeRate] {
        let text = String(decoding: body, as: UTF8.self)
        guard let date = attribute("time", in: text), let time = publicationTime(date) else {
            throw Failure(description: "ecb: expected <Cube time='YYYY-MM-DD'> in the answer, found none")
        }
        var rates: [ExchangeRate] = []
        for element in text.components(separatedBy: "<Cube").dropFirst() where element.contains("currency=") {
            guard let code = attribute("currency", in: element), let rateText = attribute("rate", in: element) else { continue }
            guard isCurrencyCode(code), let rate = ExactDecimal(rateText), rate.scaled > 0 else {
                throw Failure(description: "ecb: expected a currency code and a positive rate, found currency \(quoted(code)) rate \(quoted(rateText))")
            }
            rates.append(ExchangeRate(base: "EUR", quote: code, rate: rate, time: time, source: "ecb"))
        }
        guard !rates.isEmpty else { throw Failure(description: "ecb: expected currency rates in the answer, found none") }
        return rates
    }

    /// `{"amount":1.0,"base":"EUR","date":"2019-12-31","rates":{"USD":1.1234,...}}`.
    public static func frankfurter(_ body: [UInt8]) throws(Failure) -> [ExchangeRate] {
        struct Answer: Decodable {
            let base: String?
            let date: String?
            let rates: [String: Double]?
            let message: String?
        }
        guard let answer = try? JSONDecoder().decode(Answer.self, from: Data(body)) else {
            throw Failure(description: "frankfurter: expected a JSON object with base, date and rates, found something else")
        }
        if let message = answer.message, answer.rates == nil {
            throw Failure(description: "frankfurter: the service answered \(quoted(message))")
        }
        guard let base = answer.base, isCurrencyCode(base), let date = answer.date, let time = publicationTime(date),
              let table = answer.rates, !table.isEmpty else {
            throw Failure(description: "frankfurter: expected base, date (YYYY-MM-DD) and rates, found \(answer.base == nil ? "no base" : answer.date == nil ? "no date" : "no rates")")
        }
        var rates: [ExchangeRate] = []
        for (code, value) in table.sorted(by: { $0.key < $1.key }) {
            guard isCurrencyCode(code), let rate = ExactDecimal(value), rate.scaled > 0 else {
                throw Failure(description: "frankfurter: expected a currency code and a positive rate, found \(quoted(code)) \(value)")
            }
            rates.append(ExchangeRate(base: base, quote: code, rate: rate, time: time, source: "frankfurter"))
        }
        return rates
    }

    /// 16:00 in Frankfurt on `date` (`YYYY-MM-DD`), when the ECB publishes.
    static func publicationTime(_ date: String) -> Timestamp? {
        let parts = date.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, date.count == 10, CivilDate(parsing: date) != nil,
              let zone = TimeZone(identifier: "Europe/Berlin") else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        guard let instant = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 16)) else { return nil }
        return Timestamp(seconds: Int64(instant.timeIntervalSince1970))
    }

    static func attribute(_ name: String, in text: String) -> String? {
        for quote in ["'", "\""] {
            guard let start = text.range(of: "\(name)=\(quote)") else { continue }
            let rest = text[start.upperBound...]
            guard let end = rest.firstIndex(of: Character(quote)) else { continue }
            return String(rest[..<end])
        }
        return nil
    }

    static func isCurrencyCode(_ code: String) -> Bool {
        code.utf8.count == 3 && code.utf8.allSatisfy { (0x41...0x5A).contains($0) }
    }

    static func quoted(_ text: String) -> String { "\"" + String(text.prefix(40)) + "\"" }
}
