import PriceWatchCore
import PriceWatchCurl
import PriceWatchProviders
import PriceWatchTestKit
import Testing

/// Finnhub's earnings calendar (with a key) over a loopback server: the recorded answer (a date
/// with its timing and estimate), an empty calendar, entries that are not dates or not the
/// symbol's, a refused key.
@Suite struct FinnhubCalendarTests {
    static let fixtures: Set<String> = ["calendar_earnings_AAPL_2026-01-29.json", "calendar_earnings_empty.json"]
    let server: LoopbackHTTPServer

    init() throws {
        server = try LoopbackHTTPServer()
    }

    func provider() -> FinnhubProvider {
        FinnhubProvider(name: "finnhub", transport: CurlHTTPTransport(), apiKey: "sekrit-key-123", baseURL: server.baseURL,
                        now: { Timestamp(seconds: 1_767_225_600) }) // 2026-01-01T00:00:00Z
    }

    func serve(_ body: [UInt8], status: Int = 200) {
        server.route("GET", "/calendar/earnings") { _ in
            LoopbackResponse(status: status, headers: [HTTPHeader("Content-Type", "application/json")], body: body)
        }
    }

    @Test func theRecordedAnswerIsADateWithItsTimingAndEstimate() async throws {
        serve(try ProviderFixtures.bytes("finnhub", "calendar_earnings_AAPL_2026-01-29.json"))
        let events = try await provider().events(for: "AAPL")
        let date = try #require(CivilDate(parsing: "2026-01-29"))
        #expect(events == [CompanyEvent(symbol: "AAPL", kind: .earnings, date: date, estimate: ProviderFixtures.decimal("2.7257"),
                                        source: "finnhub", timing: .afterClose)])
        #expect(events.first?.text == "earnings of AAPL on 2026-01-29 (after the close; EPS estimate 2.7257)")
        let request = try #require(server.requests.first)
        #expect(request.target == "/calendar/earnings?from=2026-01-01&to=2026-05-01&symbol=AAPL")
        #expect(request.header("X-Finnhub-Token") == "sekrit-key-123")
    }

    @Test func emptyOddAndRefusedAnswers() async throws {
        serve(try ProviderFixtures.bytes("finnhub", "calendar_earnings_empty.json"))
        #expect(try await provider().events(for: "AAPL").isEmpty)
        serve(Array(#"{"earningsCalendar":[{"date":"2026-13-01","symbol":"AAPL"},{"date":"2026-02-01","symbol":"MSFT"},{"date":7},"#.utf8)
              + Array(#"{"date":"2026-02-02","hour":"\u0007","symbol":"AAPL"}]}"#.utf8))
        let odd = try await provider().events(for: "AAPL")
        #expect(odd.map(\.date.description) == ["2026-02-02"] && odd.first?.timing == nil, "\(odd)")
        serve(Array(#"{"error":"Invalid API key"}"#.utf8), status: 401)
        let refused = await #expect(throws: ProviderError.self) { try await provider().events(for: "AAPL") }
        #expect(refused?.message.hasPrefix("finnhub calendar for AAPL: HTTP 401") == true, "\(String(describing: refused))")
        #expect(refused?.message.contains("sekrit") == false)
    }
}
