import PriceWatchCore
import PriceWatchCurl
import PriceWatchProviders
import PriceWatchTestKit
import Testing

/// Nasdaq's public calendars as a calendar source, over libcurl and a loopback server with the
/// recorded answers (`Tests/Fixtures/providers/SOURCES.md`): the earnings
/// calendar of the next ten weekdays (timing, estimate, a loss in parentheses, a day without
/// rows), the splits calendar (a stock dividend as a percentage, "no record"), each symbol's
/// dividends with amounts, and failures that name the calendar.
@Suite struct NasdaqCalendarTests {
    static let fixtures: Set<String> = ["dividends_AAPL_2024-01-28.json", "dividends_AAPL_2026-02-03_pretty_trimmed.json",
                                        "dividends_no_dividends_partial.json", "calendar_earnings_2023-11-03.json",
                                        "calendar_earnings_2023-11-16.json", "calendar_earnings_2023-11-23.json",
                                        "calendar_earnings_2023-11-26_empty.json", "calendar_splits_2021-11-12.json",
                                        "calendar_splits_2021-11-13_no_record.json"]
    let server: LoopbackHTTPServer
    /// Thursday 16 November 2023, noon UTC: the earnings answers were recorded that week.
    static let now = Timestamp(milliseconds: 1_700_136_000_000)

    init() throws {
        server = try LoopbackHTTPServer()
    }

    func source() -> NasdaqProvider {
        NasdaqProvider(name: "nasdaq", transport: CurlHTTPTransport(), baseURL: server.baseURL, now: { Self.now })
    }

    func json(_ file: String) throws -> LoopbackResponse {
        LoopbackResponse(headers: [HTTPHeader("Content-Type", "application/json")], body: try ProviderFixtures.bytes("nasdaq", file))
    }

    /// Earnings of 16 and 23 November as recorded, every other day the recorded empty Sunday;
    /// the recorded splits; AAPL's dividends of January 2024; a company without dividends.
    func serveRecordedCalendars(splits: String = "calendar_splits_2021-11-12.json") throws {
        let days = ["2023-11-16": try json("calendar_earnings_2023-11-16.json"), "2023-11-23": try json("calendar_earnings_2023-11-23.json")]
        let empty = try json("calendar_earnings_2023-11-26_empty.json")
        server.route("GET", "/api/calendar/earnings") { request in
            let day = request.target.split(separator: "date=").last.map(String.init) ?? ""
            return days[day] ?? empty
        }
        let splitsAnswer = try json(splits)
        server.route("GET", "/api/calendar/splits") { _ in splitsAnswer }
        let aapl = try json("dividends_AAPL_2024-01-28.json")
        let none = try json("dividends_no_dividends_partial.json")
        server.setFallback { request in
            request.path == "/api/quote/AAPL/dividends" ? aapl : request.path.hasSuffix("/dividends") ? none : .status(404)
        }
    }

    @Test func theNextTenWeekdaysOfEarningsTheSplitsAndEachSymbolsDividendsAreRead() async throws {
        try serveRecordedCalendars()
        let results = await source().events(forEach: ["WMT", "UGI", "FUTU", "SRL", "AAPL"])

        let wmt = try #require(results["WMT"]?.value, "\(String(describing: results["WMT"]))")
        #expect(wmt == [CompanyEvent(symbol: "WMT", kind: .earnings, date: CivilDate(year: 2023, month: 11, day: 16)!,
                                     estimate: ExactDecimal("1.51"), source: "nasdaq", timing: .beforeOpen)])
        let ugi = try #require(results["UGI"]?.value)
        #expect(ugi.first?.estimate == ExactDecimal("-0.06"), "a loss is written in parentheses")
        #expect(ugi.first?.timing == .afterClose)
        let futu = try #require(results["FUTU"]?.value)
        #expect(futu.map(\.date) == [CivilDate(year: 2023, month: 11, day: 23)!], "a week later, on Thanksgiving")
        #expect(futu.first?.estimate == nil, "an empty forecast is not an estimate of zero")
        let srl = try #require(results["SRL"]?.value)
        #expect(srl.map(\.kind) == [.split])
        #expect(srl.first?.splitRatio?.stored == "1.08:1", "an 8% stock dividend")
        #expect(srl.first?.text == "split of SRL on 2021-11-12 (1.08-for-1)")

        let aapl = try #require(results["AAPL"]?.value)
        #expect(aapl.count == 8, "the four newest dividends, each an ex-dividend day and a payment day: \(aapl.map(\.text))")
        let newest = try #require(aapl.last { $0.kind == .exDividend })
        #expect(newest.date == CivilDate(year: 2023, month: 11, day: 10)!)
        #expect(newest.amount == ExactDecimal("0.24"))
        #expect(newest.currency == "USD")
        #expect(newest.text == "ex-dividend day of AAPL on 2023-11-10 (0.24 USD per share)")
        #expect(aapl.contains(CompanyEvent(symbol: "AAPL", kind: .dividendPayment, date: CivilDate(year: 2023, month: 11, day: 16)!,
                                           source: "nasdaq", amount: ExactDecimal("0.24"), currency: "USD")))

        let earningsDays = server.requests(path: "/api/calendar/earnings").map(\.target)
        #expect(earningsDays == ["2023-11-16", "2023-11-17", "2023-11-20", "2023-11-21", "2023-11-22", "2023-11-23",
                                 "2023-11-24", "2023-11-27", "2023-11-28", "2023-11-29"].map { "/api/calendar/earnings?date=\($0)" },
                "ten weekdays, once for every symbol")
        #expect(server.requests(path: "/api/calendar/splits").count == 1)
        #expect(server.requests.first?.header("Origin") == "https://www.nasdaq.com")
    }

    @Test func aDeclaredDividendIsUpcomingWithItsAmount() async throws {
        try serveRecordedCalendars()
        let declared = try json("dividends_AAPL_2026-02-03_pretty_trimmed.json")
        server.route("GET", "/api/quote/AAPL/dividends") { _ in declared }
        let events = try await source().events(for: "AAPL")
        let upcoming = events.filter { $0.date >= CivilDate(year: 2026, month: 2, day: 1)! }
        #expect(upcoming.map(\.text) == ["ex-dividend day of AAPL on 2026-02-09 (0.26 USD per share)",
                                         "dividend payment of AAPL on 2026-02-12 (0.26 USD per share)"])
    }

    /// A day already past when it was recorded has reported figures beside the forecast (`eps`,
    /// `surprise`): the same event, the forecast as the estimate.
    @Test func aPastDayOfTheEarningsCalendarIsReadAlike() throws {
        let response = HTTPResponse(status: 200, headers: [], body: try ProviderFixtures.bytes("nasdaq", "calendar_earnings_2023-11-03.json"))
        let day = try #require(CivilDate(year: 2023, month: 11, day: 3))
        let events = try NasdaqCalendarDecoder.earnings(response, day: day, symbols: ["ENB", "LLYVK", "AAPL"])
        #expect(events.sorted { $0.symbol < $1.symbol } == [
            CompanyEvent(symbol: "ENB", kind: .earnings, date: day, estimate: ExactDecimal("0.43"), source: "nasdaq"),
            CompanyEvent(symbol: "LLYVK", kind: .earnings, date: day, estimate: ExactDecimal("0.98"), source: "nasdaq", timing: .beforeOpen),
        ], "\(events)")
        #expect(Set(events.map(\.symbol)) == ["ENB", "LLYVK"], "AAPL did not report that day")
    }

    @Test func splitsCalendarWithoutRecordsIsEmptyNotAFailure() async throws {
        try serveRecordedCalendars(splits: "calendar_splits_2021-11-13_no_record.json")
        let results = await source().events(forEach: ["SRL"])
        #expect(results["SRL"]?.value == [])
    }

    @Test func aFailedEarningsDayFailsEverySymbolNamingTheDay() async throws {
        try serveRecordedCalendars()
        server.route("GET", "/api/calendar/earnings") { _ in .text("<html>busy</html>", status: 503) }
        let results = await source().events(forEach: ["WMT", "AAPL"])
        for symbol in ["WMT", "AAPL"] {
            let error = try #require(results[symbol]?.error, "\(symbol)")
            #expect(error.message.contains("nasdaq earnings calendar of 2023-11-16"), "\(error.message)")
        }
        #expect(server.requests(path: "/api/calendar/earnings").count == 1, "the first failed day ends the read")
        #expect(server.requests(path: "/api/quote/AAPL/dividends").isEmpty)
    }

    @Test func aMalformedDividendsAnswerFailsOnlyItsSymbol() async throws {
        try serveRecordedCalendars()
        server.route("GET", "/api/quote/WMT/dividends") { _ in .text("[1, 2", status: 200) }
        let results = await source().events(forEach: ["WMT", "AAPL"])
        let error = try #require(results["WMT"]?.error)
        #expect(error.kind == .malformedResponse)
        #expect(error.message.hasPrefix("nasdaq dividends for WMT"), "\(error.message)")
        #expect(results["AAPL"]?.value?.count == 8)
    }

    @Test func aSymbolNotListedAsAStockIsAskedAsAnETFThenHasNoDividends() async throws {
        try serveRecordedCalendars()
        let unknown = try json("info_unknown_symbol.json")
        server.route("GET", "/api/quote/NOPE/dividends") { _ in unknown }
        let results = await source().events(forEach: ["NOPE"])
        #expect(results["NOPE"]?.value == [])
        #expect(server.requests(path: "/api/quote/NOPE/dividends").map(\.target)
                == ["/api/quote/NOPE/dividends?assetclass=stocks", "/api/quote/NOPE/dividends?assetclass=etf"])
    }

    @Test func hostileRowsAreLeftOutNeverGuessed() async throws {
        try serveRecordedCalendars()
        let hostile = """
            {"data":{"rows":[{"symbol":"WMT","ratio":"2 : 0","executionDate":"13/45/2023"},
            {"symbol":"WMT","ratio":"\\u0007:1","executionDate":"12/01/2023"},
            {"symbol":["WMT"],"ratio":"2 : 1","executionDate":"12/04/2023"},
            {"symbol":"WMT","ratio":"3 : 2","executionDate":"12/05/2023"}]},"status":{"rCode":200}}
            """
        server.route("GET", "/api/calendar/splits") { _ in .text(hostile) }
        let dividends = """
            {"data":{"dividends":{"rows":[{"exOrEffDate":"02/30/2024","amount":"$0.10","type":"Cash","paymentDate":"N/A"},
            {"exOrEffDate":"03/01/2024","amount":"$-1","type":"Cash","paymentDate":"03/05/2024"},
            {"exOrEffDate":"03/02/2024","amount":"$0.5","type":"Stock","paymentDate":"03/05/2024"},
            {"exOrEffDate":"03/03/2024","amount":"$1,000.5","type":"CASH","paymentDate":"03/06/2024","currency":"usd\\u0000"}]}},"status":{"rCode":200}}
            """
        server.route("GET", "/api/quote/WMT/dividends") { _ in .text(dividends) }
        let events = try await source().events(for: "WMT")
        let splits = events.filter { $0.kind == .split }
        #expect(splits.map(\.date) == [CivilDate(year: 2023, month: 12, day: 1)!, CivilDate(year: 2023, month: 12, day: 5)!],
                "an impossible date and a symbol that is not text are left out")
        #expect(splits.map { $0.splitRatio?.stored } == [nil, "3:2"], "a ratio that is not one is not guessed")
        let dividendEvents = events.filter { $0.kind == .exDividend || $0.kind == .dividendPayment }
        #expect(dividendEvents.map(\.text) == ["ex-dividend day of WMT on 2024-03-03 (1000.50 USD per share)",
                                               "dividend payment of WMT on 2024-03-06 (1000.50 USD per share)"],
                "a February 30th, a negative amount and a stock dividend are left out; a bad currency is the dollar's")
    }

    @Test func onlyUSListingsAreAsked() {
        let source = source()
        #expect(source.lists("AAPL") && source.lists("BRK.B"))
        #expect(!source.lists("BTC-USD") && !source.lists("SAP.DE") && !source.lists("^GSPC"))
    }
}
