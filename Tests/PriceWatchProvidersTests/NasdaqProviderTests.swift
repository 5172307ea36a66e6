import PriceWatchCore
import PriceWatchCurl
import PriceWatchProviders
import PriceWatchTestKit
import Testing

/// Nasdaq's keyless quote API over the real libcurl transport and a loopback server: the
/// recorded answers of four market states, a symbol not listed (asked as a stock, then as an
/// ETF), the vendor error, malformed fields, and which symbols it serves as a fallback.
@Suite struct NasdaqProviderTests {
    static let fixtures: Set<String> = ["info_AAPL_pre_market.json", "info_AAPL_market_open.json", "info_AAPL_after_hours.json",
                                        "info_AAPL_market_closed.json", "info_unknown_symbol.json", "info_vendor_error.json"]
    let server: LoopbackHTTPServer

    init() throws {
        server = try LoopbackHTTPServer()
    }

    func provider() -> NasdaqProvider { NasdaqProvider(name: "nasdaq", transport: CurlHTTPTransport(), baseURL: server.baseURL) }

    func serve(_ file: String, for symbol: String = "AAPL") throws {
        let body = try ProviderFixtures.bytes("nasdaq", file)
        server.route("GET", "/api/quote/\(symbol)/info") { _ in LoopbackResponse(headers: [HTTPHeader("Content-Type", "application/json")], body: body) }
    }

    @Test(arguments: [
        ("info_AAPL_market_open.json", "266.782", "2019-11-19T15:33:00Z", "REGULAR", "2492507"),
        ("info_AAPL_pre_market.json", "267.85", "2019-11-19T14:27:00Z", "PRE", "111677"),
        ("info_AAPL_after_hours.json", "267.1", "2019-11-19T21:31:00Z", "POST", "11964129"),
        ("info_AAPL_market_closed.json", "266.29", "2019-11-19T21:00:00Z", "CLOSED", "19069597"),
    ])
    func theRecordedAnswersAreQuotes(file: String, price: String, time: String, state: String, volume: String) async throws {
        try serve(file)
        let answers = try await provider().fetch(["AAPL"])
        let quote = try #require(answers["AAPL"]?.value, "\(answers)")
        #expect(quote.price == ProviderFixtures.decimal(price))
        #expect(quote.time.rfc3339 == time, "New York time; a date alone is that day's close")
        #expect(quote.marketState == state)
        #expect(quote.previousClose == ProviderFixtures.decimal("267.10"))
        #expect(quote.dayVolume == ProviderFixtures.decimal(volume))
        #expect(quote.currency == "USD")
        let request = try #require(server.requests.first)
        #expect(request.target == "/api/quote/AAPL/info?assetclass=stocks")
        #expect(request.header("User-Agent")?.hasPrefix("Mozilla/5.0") == true)
        #expect(request.header("Origin") == "https://www.nasdaq.com")
    }

    @Test func aSymbolNotListedAsAStockIsAskedAsAnETFThenUnknown() async throws {
        try serve("info_unknown_symbol.json", for: "NOPE")
        let answers = try await provider().fetch(["NOPE"])
        let error = try #require(answers["NOPE"]?.error)
        #expect(error.kind == .unknownSymbol)
        #expect(error.message == "nasdaq lists no stock or ETF \"NOPE\" (Symbol not exists.)")
        #expect(server.requests.map(\.target) == ["/api/quote/NOPE/info?assetclass=stocks", "/api/quote/NOPE/info?assetclass=etf"])
    }

    @Test func theVendorErrorIsTransientAndFailsTheBatchOnlyWhenNothingWasQuoted() async throws {
        try serve("info_vendor_error.json", for: "SNDK")
        await #expect(throws: ProviderError.self) { try await provider().fetch(["SNDK"]) }
        do {
            _ = try await provider().fetch(["SNDK"])
        } catch {
            #expect(error.kind == .transient)
            #expect(error.message == "nasdaq quote for SNDK: no data: Error while calling vendor")
        }
        try serve("info_AAPL_market_open.json")
        let answers = try await provider().fetch(["SNDK", "AAPL"])
        #expect(answers["AAPL"]?.value?.price == ProviderFixtures.decimal("266.782"))
        #expect(answers["SNDK"] == nil, "no answer this time, no quote")
    }

    @Test func oddFieldsFailTheirSymbolWithTheFieldNamed() async throws {
        server.route("GET", "/api/quote/AAPL/info") { _ in
            .json(#"{"data":{"primaryData":{"lastSalePrice":"N/A","lastTradeTimestamp":"Nov 19, 2019 10:33 AM ET"}},"status":{"rCode":200}}"#)
        }
        server.route("GET", "/api/quote/MSFT/info") { _ in
            .json(#"{"data":{"primaryData":{"lastSalePrice":"$1,266.78","lastTradeTimestamp":"yesterday"}},"status":{"rCode":200}}"#)
        }
        server.route("GET", "/api/quote/AMZN/info") { _ in .html("<html>Access Denied</html>") }
        let answers = try await provider().fetch(["AAPL", "MSFT"])
        #expect(answers["AAPL"]?.error?.message == "nasdaq quote for AAPL: expected a positive 'lastSalePrice' such as \"$266.78\", found \"N/A\"")
        #expect(answers["MSFT"]?.error?.message
                == "nasdaq quote for MSFT: expected 'lastTradeTimestamp' such as \"Nov 19, 2019 10:33 AM ET\", found \"yesterday\"")
        await #expect(throws: ProviderError.self) { try await provider().fetch(["AMZN"]) }
    }

    @Test(arguments: [("AAPL", true), ("BRK.B", true), ("BF-B", true), ("F", true), ("GOOGL", true),
                      ("BTC-USD", false), ("^GSPC", false), ("EURUSD=X", false), ("SAP.DE", false), ("aapl", false),
                      ("TOOLONG", false), ("", false), ("AAPL.", false)])
    func servesUSListingsOnly(symbol: String, served: Bool) {
        #expect(provider().serves(symbol) == served)
    }
}
