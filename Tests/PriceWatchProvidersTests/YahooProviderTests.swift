import Foundation
import PriceWatchCore
import PriceWatchCurl
import PriceWatchProviders
import PriceWatchTestKit
import Testing

/// The yahoo provider end to end: the real libcurl transport against a loopback server that
/// serves the recorded payloads: session and crumb, renewal on 401, chart fallback, search.
@Suite struct YahooProviderTests {
    let server: LoopbackHTTPServer
    let clock = ManualWallClock(Timestamp(seconds: 1_742_830_000))

    init() throws {
        server = try LoopbackHTTPServer()
        server.route("GET", "/") { _ in
            LoopbackResponse(status: 404, headers: [
                HTTPHeader("Set-Cookie", "A3=d=AQABBA&S=AQAAA; Expires=Sun, 1 Feb 2026 00:00:00 GMT; Domain=.yahoo.com; Path=/; Secure"),
                HTTPHeader("Set-Cookie", "A1=one; Path=/"),
            ], body: Array("<html>not here</html>".utf8))
        }
        server.route("GET", "/v1/test/getcrumb") { request in
            guard request.header("Cookie") == "A3=d=AQABBA&S=AQAAA; A1=one" else { return .status(401, body: "no cookie") }
            return .text("haT3oykhHqZ")
        }
    }

    func provider(sessionURL: String? = nil) -> YahooProvider {
        YahooProvider(name: "yahoo", transport: CurlHTTPTransport(), baseURL: server.baseURL, sessionURL: sessionURL,
                      now: clock.function)
    }

    func fixture(_ file: String, status: Int = 200) throws -> LoopbackResponse {
        LoopbackResponse(status: status, headers: [HTTPHeader("Content-Type", "application/json")],
                         body: try ProviderFixtures.bytes("yahoo", file))
    }

    @Test func batchWithCookieAndCrumbThenTheSessionIsReused() async throws {
        let multi = try fixture("quote_AAPL_BABA_multi.json")
        server.route("GET", "/v7/finance/quote") { request in
            guard request.queryValue("crumb") == "haT3oykhHqZ", request.header("Cookie") == "A3=d=AQABBA&S=AQAAA; A1=one"
            else { return .json(#"{"finance":{"result":null,"error":{"code":"Unauthorized","description":"Invalid Crumb"}}}"#, status: 401) }
            return multi
        }
        let yahoo = provider()
        let answers = try await yahoo.fetch(["AAPL", "BABA", "NOPE"])
        #expect(answers["AAPL"]?.value?.price == ProviderFixtures.decimal("244.6"))
        #expect(answers["BABA"]?.value?.exchange == "NYQ")
        #expect(answers["NOPE"]?.error?.kind == .unknownSymbol)
        _ = try await yahoo.fetch(["AAPL"])
        #expect(server.requests.map(\.path) == ["/", "/v1/test/getcrumb", "/v7/finance/quote", "/v7/finance/quote"])
        let quoteRequest = try #require(server.requests(path: "/v7/finance/quote").first)
        #expect(quoteRequest.queryValue("symbols") == "AAPL,BABA,NOPE")
        #expect(quoteRequest.header("User-Agent")?.hasPrefix("Mozilla/5.0") == true)
    }

    @Test func invalidCrumbRenewsTheSessionOnceAndRepeatsTheRequest() async throws {
        server.route("GET", "/v1/test/getcrumb", sequence: [.text("firstCrumb1"), .text("secondCrumb")])
        let rejected = try fixture("quote_v7_http401_invalid_crumb_2024.json", status: 401)
        let quote = try fixture("quote_AAPL.json")
        server.route("GET", "/v7/finance/quote") { request in
            request.queryValue("crumb") == "secondCrumb" ? quote : rejected
        }
        let answers = try await provider().fetch(["AAPL"])
        #expect(answers["AAPL"]?.value?.price == ProviderFixtures.decimal("244.60"))
        #expect(server.requests.map(\.path) == ["/", "/v1/test/getcrumb", "/v7/finance/quote",
                                                "/", "/v1/test/getcrumb", "/v7/finance/quote"])
        #expect(server.requests(path: "/v7/finance/quote").map { $0.queryValue("crumb") } == ["firstCrumb1", "secondCrumb"])
    }

    @Test func aSecondRejectionFallsBackToTheChartPerSymbol() async throws {
        server.route("GET", "/v7/finance/quote", sequence: [try fixture("quote_v7_http401_invalid_crumb_2023.json", status: 401)])
        server.route("GET", "/v8/finance/chart/AAPL", sequence: [try fixture("chart_AAPL_1d_2022-02-22.json")])
        server.route("GET", "/v8/finance/chart/SI", sequence: [try fixture("chart_SI_not_found_http404.json", status: 404)])
        server.route("GET", "/v8/finance/chart/%5EVXAPL", sequence: [try fixture("chart_VXAPL_index_no_data_in_range.json")])
        let answers = try await provider().fetch(["AAPL", "SI", "^VXAPL"])
        let apple = try #require(answers["AAPL"]?.value)
        #expect(apple.price == ProviderFixtures.decimal("220.00"))
        #expect(apple.marketState == "REGULAR") // the manual clock is inside the regular session
        #expect(answers["SI"]?.error?.kind == .unknownSymbol)
        #expect(answers["^VXAPL"]?.value?.price == ProviderFixtures.decimal("27.37"))
        #expect(server.requests(path: "/v7/finance/quote").count == 2)
        // Asked at once (up to YahooProvider.chartConcurrency), so in any order.
        #expect(Set(server.requests.suffix(3).map(\.path)) == ["/v8/finance/chart/AAPL", "/v8/finance/chart/SI", "/v8/finance/chart/%5EVXAPL"])
        #expect(server.requests(path: "/v8/finance/chart/AAPL").first?.queryValue("range") == "1d")
    }

    @Test func htmlInsteadOfJSONFallsBackToTheChart() async throws {
        server.route("GET", "/v7/finance/quote") { _ in .html("<!doctype html><title>consent</title>") }
        server.route("GET", "/v8/finance/chart/BTC-USD", sequence: [try fixture("chart_BTC-USD_1d.json")])
        let answers = try await provider().fetch(["BTC-USD"])
        #expect(answers["BTC-USD"]?.value?.price == ProviderFixtures.decimal("97208.17"))
    }

    @Test func noSessionFallsBackToTheChart() async throws {
        server.route("GET", "/v1/test/getcrumb") { _ in .html("<html>consent required</html>") }
        server.route("GET", "/v8/finance/chart/BTC-USD", sequence: [try fixture("chart_BTC-USD_1d.json")])
        let answers = try await provider().fetch(["BTC-USD"])
        #expect(answers["BTC-USD"]?.value?.currency == "USD")
        #expect(server.requests(path: "/v7/finance/quote").isEmpty)
    }

    @Test func rateLimitIsThrownWithRetryAfterAndNoFallback() async throws {
        let body = try ProviderFixtures.text("yahoo", "http429_edge_too_many_requests.txt")
        server.route("GET", "/v7/finance/quote") { _ in .text(body, status: 429, headers: [HTTPHeader("Retry-After", "17")]) }
        let error = await #expect(throws: ProviderError.self) { try await provider().fetch(["AAPL", "MSFT"]) }
        #expect(error?.kind == .rateLimited)
        #expect(error?.retryAfterSeconds == 17)
        #expect(error?.message.contains("Edge: Too Many Requests") == true)
        #expect(server.requests.allSatisfy { !$0.path.hasPrefix("/v8/") })
    }

    /// The chart is asked four symbols at a time; a rate limit ends the fallback after the
    /// requests already in flight: the next four are never asked.
    @Test func aRateLimitedFallbackFailsTheBatch() async throws {
        server.route("GET", "/v7/finance/quote") { _ in .status(500, body: "oops") }
        server.route("GET", "/v8/finance/chart/AAPL") { _ in .text("Too Many Requests", status: 429) }
        let symbols = ["AAPL", "MSFT", "NVDA", "AMZN", "META", "TSLA"]
        let error = await #expect(throws: ProviderError.self) { try await provider().fetch(symbols) }
        #expect(error?.kind == .rateLimited)
        #expect(error?.message.contains("HTTP 500") == true)
        #expect(YahooProvider.chartConcurrency == 4)
        #expect(server.requests(path: "/v8/finance/chart/META").isEmpty && server.requests(path: "/v8/finance/chart/TSLA").isEmpty)
        #expect(server.requests.filter { $0.path.hasPrefix("/v8/") }.count == 4)
    }

    /// Issue 28: each chart request draws from the provider's rate budget before it is sent
    /// (the v7 request drew the batch's from the poller): a budget that grants six requests
    /// lets six charts go out, of which the chunk of four goes only once four are granted; when
    /// the budget stops (the daemon shutting down), nothing more is asked.
    @Test func eachChartRequestDrawsFromTheRateBudget() async throws {
        server.route("GET", "/v7/finance/quote") { _ in .status(500, body: "oops") }
        let chart = try fixture("chart_AAPL_1d_2022-02-22.json")
        server.setFallback { request in request.path.hasPrefix("/v8/finance/chart/") ? chart : .status(404) }
        final class Budget: @unchecked Sendable {
            let lock = NSLock()
            var granted = 0
            var chartsSentBeforeEachGrant: [Int] = []
        }
        let budget = Budget()
        let server = self.server
        let yahoo = YahooProvider(name: "yahoo", transport: CurlHTTPTransport(), baseURL: server.baseURL, now: clock.function,
                                  budget: {
                                      let sent = server.requests.filter { $0.path.hasPrefix("/v8/") }.count
                                      try budget.lock.withLock {
                                          guard budget.granted < 6 else { throw CancellationError() }
                                          budget.granted += 1
                                          budget.chartsSentBeforeEachGrant.append(sent)
                                      }
                                  })
        let symbols = ["AAPL", "MSFT", "NVDA", "AMZN", "META", "TSLA", "ORCL"]
        let error = await #expect(throws: ProviderError.self) { try await yahoo.fetch(symbols) }
        #expect(error?.message.hasSuffix("chart fallback: stopped while waiting for the rate limit") == true, "\(String(describing: error))")
        #expect(budget.chartsSentBeforeEachGrant == [0, 0, 0, 0, 4, 4], "four granted before the first four go, then the next chunk's")
        #expect(server.requests.filter { $0.path.hasPrefix("/v8/") }.count == 4, "the second chunk waits for all its grants")

        let unlimited = try await provider().fetch(["AAPL", "MSFT"])
        #expect(unlimited.count == 2, "without a budget (commands), at once")
    }

    /// Issue 28: v7 refused and the chart failing too is a failed batch (so the daemon asks the
    /// fallbacks); symbols the chart does not know are answers, not a failure.
    @Test func aChartThatFailsForEverySymbolFailsTheBatch() async throws {
        server.route("GET", "/v7/finance/quote") { _ in .status(500, body: "oops") }
        server.route("GET", "/v8/finance/chart/AAPL") { _ in .status(500, body: "upstream error") }
        server.route("GET", "/v8/finance/chart/SI", sequence: [try fixture("chart_SI_not_found_http404.json", status: 404)])
        let error = await #expect(throws: ProviderError.self) { try await provider().fetch(["AAPL", "SI"]) }
        #expect(error?.kind == .transient)
        #expect(error?.message.contains("chart fallback") == true, "\(String(describing: error))")

        server.route("GET", "/v8/finance/chart/NOPE", sequence: [try fixture("chart_SI_not_found_http404.json", status: 404)])
        let answers = try await provider().fetch(["NOPE"])
        #expect(answers["NOPE"]?.error?.kind == .unknownSymbol)
    }

    @Test func anExplicitSessionURLIsUsed() async throws {
        server.route("GET", "/consent") { _ in LoopbackResponse(status: 200, headers: [HTTPHeader("Set-Cookie", "A3=d=AQABBA&S=AQAAA")]) }
        server.route("GET", "/v1/test/getcrumb") { request in
            request.header("Cookie") == "A3=d=AQABBA&S=AQAAA" ? .text("abc/def.ghi") : .status(401)
        }
        server.route("GET", "/v7/finance/quote", sequence: [try fixture("quote_BTC-USD.json")])
        let answers = try await provider(sessionURL: server.baseURL + "/consent").fetch(["BTC-USD"])
        #expect(answers["BTC-USD"]?.value?.marketState == "REGULAR")
        #expect(server.requests.first?.path == "/consent")
        #expect(server.requests(path: "/v7/finance/quote").first?.query.contains("crumb=abc%2Fdef.ghi") == true)
    }

    @Test func anUnreachableServiceIsTransient() async throws {
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} } // the port stays taken until the test ends
        let provider = YahooProvider(name: "yahoo", transport: CurlHTTPTransport(), baseURL: refusing.baseURL, now: clock.function)
        let error = await #expect(throws: ProviderError.self) { try await provider.fetch(["AAPL"]) }
        #expect(error?.kind == .transient)
    }

    @Test func searchSendsTheQueryEncoded() async throws {
        server.route("GET", "/v1/finance/search", sequence: [try fixture("search_AAPL.json")])
        let matches = try await provider().search("apple inc & co")
        #expect(matches.first == SymbolMatch(symbol: "AAPL", name: "Apple Inc.", exchange: "NMS", type: "EQUITY"))
        #expect(server.requests.map(\.path) == ["/v1/finance/search"])
        #expect(server.requests.first?.queryValue("q") == "apple inc & co")
    }

    @Test func limitsAreDeclared() {
        #expect(YahooProvider.maximumBatchSize == 50)
        #expect(provider().maximumBatchSize == 50)
        #expect(YahooProvider.requestsPerMinute == 30)
        #expect(provider().requestsPerMinute == 30)
    }
}
