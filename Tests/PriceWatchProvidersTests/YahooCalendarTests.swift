import PriceWatchCore
import PriceWatchCurl
import PriceWatchProviders
import PriceWatchTestKit
import Testing

/// Yahoo's calendar module (`quoteSummary?modules=calendarEvents`) through the provider's
/// session over a loopback server: the recorded answers (an estimated earnings range, an
/// empty calendar), an unknown symbol, malformed and hostile answers.
@Suite struct YahooCalendarTests {
    static let fixtures: Set<String> = ["quoteSummary_NVDA_calendarEvents_2017.json", "quoteSummary_JPY_listing_no_earnings_date.json"]
    let server: LoopbackHTTPServer

    init() throws {
        server = try LoopbackHTTPServer()
        server.route("GET", "/") { _ in LoopbackResponse(status: 404, headers: [HTTPHeader("Set-Cookie", "A3=cookie; Path=/")]) }
        server.route("GET", "/v1/test/getcrumb") { _ in .text("haT3oykhHqZ") }
    }

    func provider() -> YahooProvider {
        YahooProvider(name: "yahoo", transport: CurlHTTPTransport(), baseURL: server.baseURL, sessionURL: server.baseURL + "/")
    }

    func serve(_ symbol: String, _ body: [UInt8], status: Int = 200) {
        server.route("GET", "/v10/finance/quoteSummary/\(symbol)") { _ in
            LoopbackResponse(status: status, headers: [HTTPHeader("Content-Type", "application/json")], body: body)
        }
    }

    static func date(_ text: String) -> CivilDate {
        guard let date = CivilDate(parsing: text) else { preconditionFailure("bad date in a test") }
        return date
    }

    @Test func theRecordedCalendarIsAnEarningsRangeAnExDividendDayAndAPayment() async throws {
        serve("NVDA", try ProviderFixtures.bytes("yahoo", "quoteSummary_NVDA_calendarEvents_2017.json"))
        let events = try await provider().events(for: "NVDA")
        #expect(events == [
            CompanyEvent(symbol: "NVDA", kind: .earnings, date: Self.date("2017-05-10"), lastDate: Self.date("2017-05-15"),
                         estimate: ProviderFixtures.decimal("0.66"), source: "yahoo"),
            CompanyEvent(symbol: "NVDA", kind: .exDividend, date: Self.date("2017-02-22"), source: "yahoo"),
            CompanyEvent(symbol: "NVDA", kind: .dividendPayment, date: Self.date("2017-03-17"), source: "yahoo"),
        ])
        let request = try #require(server.requests(path: "/v10/finance/quoteSummary/NVDA").first)
        #expect(request.queryValue("modules") == "calendarEvents")
        #expect(request.queryValue("crumb") == "haT3oykhHqZ")
        #expect(request.header("Cookie") == "A3=cookie")
    }

    @Test func anEmptyCalendarIsNoEventNeverAGuess() async throws {
        serve("7203.T", try ProviderFixtures.bytes("yahoo", "quoteSummary_JPY_listing_no_earnings_date.json"))
        let events = try await provider().events(for: "7203.T")
        #expect(events == [CompanyEvent(symbol: "7203.T", kind: .exDividend, date: Self.date("2023-03-30"), source: "yahoo")])
    }

    @Test func anUnknownSymbolAndBadAnswersAreErrorsNamingSourceAndField() async throws {
        serve("NOPE", Array(#"{"quoteSummary":{"result":null,"error":{"code":"Not Found","description":"Quote not found for ticker symbol: NOPE"}}}"#.utf8),
              status: 404)
        let unknown = await #expect(throws: ProviderError.self) { try await provider().events(for: "NOPE") }
        #expect(unknown?.kind == .unknownSymbol)
        #expect(unknown?.message == "yahoo calendar for NOPE: Yahoo does not know the symbol (Quote not found for ticker symbol: NOPE)")

        serve("HTML", Array("<html><body>Will be right back</body></html>".utf8))
        let html = await #expect(throws: ProviderError.self) { try await provider().events(for: "HTML") }
        #expect(html?.kind == .malformedResponse)

        serve("ODD", Array(#"{"quoteSummary":{"result":{"calendarEvents":1}}}"#.utf8))
        let odd = await #expect(throws: ProviderError.self) { try await provider().events(for: "ODD") }
        #expect(odd?.message == "yahoo calendar for ODD: expected 'quoteSummary.result' as a list")

        // Dates that are not dates, control characters and huge numbers: no event, no crash.
        serve("BAD", Array(#"{"quoteSummary":{"result":[{"calendarEvents":{"earnings":{"earningsDate":[{"raw":-5,"fmt":"2017-13-40"},{"raw":1e300}],"earningsAverage":{"raw":"x"}},"exDividendDate":{"fmt":"\u0007\u0000"},"dividendDate":[]}}],"error":null}}"#.utf8))
        #expect(try await provider().events(for: "BAD").isEmpty)
    }
}
