import Foundation
import PriceWatchCore
import PriceWatchCurl
import PriceWatchProviders
import PriceWatchTestKit
import Testing

/// The ECB's daily file and Frankfurter's JSON, as recorded, over libcurl from a loopback
/// server; bad answers are errors naming the source.
@Suite struct ReferenceRatesTests {
    static func fixture(_ path: String) throws -> String {
        try String(contentsOfFile: RepositoryFiles.path("Tests/Fixtures/providers/" + path), encoding: .utf8)
    }

    @Test func theECBsDailyFileOverHTTP() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let xml = try Self.fixture("ecb/eurofxref-daily_2018-06-11.xml")
        server.route("GET", "/eurofxref-daily.xml") { _ in .text(xml, headers: [HTTPHeader("Content-Type", "text/xml")]) }
        let rates = try await ReferenceRates.fetch(.ecb, url: server.baseURL + "/eurofxref-daily.xml", transport: CurlHTTPTransport())
        let usd = try #require(rates.first { $0.quote == "USD" })
        #expect(usd.base == "EUR" && usd.rate == ExactDecimal("1.1790") && usd.source == "ecb")
        #expect(usd.time == Timestamp(parsing: "2018-06-11T14:00:00Z"), "16:00 in Frankfurt (CEST)")
        #expect(rates.count >= 30)
    }

    @Test func frankfurtersAnswersIncludingAHolidayAndItsError() throws {
        let holiday = try ReferenceRates.frankfurter(Array(Self.fixture("frankfurter/v1_date_2020-01-01_returns_2019-12-31_all_rates.json").utf8))
        #expect(holiday.first { $0.quote == "GBP" }?.rate == ExactDecimal("0.8508"))
        #expect(holiday.first?.time == Timestamp(parsing: "2019-12-31T15:00:00Z"), "the date answered, 16:00 CET")
        let single = try ReferenceRates.frankfurter(Array(Self.fixture("frankfurter/v1_historical_2025-03-18_base-EUR_symbols-GBP.json").utf8))
        #expect(single.map(\.quote) == ["GBP"] && single.first?.rate == ExactDecimal("0.84173"))
        #expect(throws: ReferenceRates.Failure.self) {
            _ = try ReferenceRates.frankfurter(Array(Self.fixture("frankfurter/error_not_found_same_currency.json").utf8))
        }
    }

    @Test func badAnswersNameTheSourceAndWhatWasWrong() {
        func message(_ body: () throws -> Void) -> String {
            do { try body() } catch { return "\(error)" }
            return "no error"
        }
        #expect(message { _ = try ReferenceRates.ecb(Array("<html>maintenance</html>".utf8)) }
                == "ecb: expected <Cube time='YYYY-MM-DD'> in the answer, found none")
        #expect(message { _ = try ReferenceRates.ecb(Array("<Cube time='2018-06-11'><Cube currency='USD' rate='-1'/>".utf8)) }
                .hasPrefix("ecb: expected a currency code and a positive rate"))
        #expect(message { _ = try ReferenceRates.frankfurter(Array("[1, 2]".utf8)) }
                == "frankfurter: expected a JSON object with base, date and rates, found something else")
        #expect(message { _ = try ReferenceRates.frankfurter(Array(#"{"message":"not found"}"#.utf8)) } == #"frankfurter: the service answered "not found""#)
    }
}
