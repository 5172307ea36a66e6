import PriceWatchCore
import PriceWatchCurl
import PriceWatchProviders
import PriceWatchTestKit
import Testing

/// Finnhub, Coinbase and Binance end to end over the real libcurl transport and a loopback
/// server serving the recorded payloads.
@Suite struct OtherProviderTests {
    let server: LoopbackHTTPServer

    init() throws {
        server = try LoopbackHTTPServer()
    }

    func fixture(_ service: String, _ file: String, status: Int = 200, headers: [HTTPHeader] = []) throws -> LoopbackResponse {
        LoopbackResponse(status: status, headers: headers, body: try ProviderFixtures.bytes(service, file))
    }

    // MARK: Finnhub

    @Test func finnhubSendsTheKeyInAHeaderAndReportsZerosAsUnknown() async throws {
        let apple = try fixture("finnhub", "quote_AAPL_with_d_dp_from_js_literal.json")
        let zeros = try fixture("finnhub", "quote_DJI_all_zero_unsupported_symbol.json")
        server.route("GET", "/quote") { request in
            guard request.header("X-Finnhub-Token") == "sekret-key" else { return .status(401) }
            return request.queryValue("symbol") == "AAPL" ? apple : zeros
        }
        let finnhub = FinnhubProvider(name: "stocks", transport: CurlHTTPTransport(), apiKey: "sekret-key", baseURL: server.baseURL + "/")
        let answers = try await finnhub.fetch(["AAPL", "^DJI"])
        #expect(answers["AAPL"]?.value?.price == ProviderFixtures.decimal("175.43"))
        #expect(answers["^DJI"]?.error?.kind == .unknownSymbol)
        #expect(server.requests.map(\.target) == ["/quote?symbol=AAPL", "/quote?symbol=%5EDJI"])
        #expect(server.requests.allSatisfy { !$0.target.contains("sekret") })
    }

    /// Issue 29: an error body that echoes the key is redacted before it is cut to a
    /// message's length, wherever the cut falls in the key (no run of 6 of its characters left).
    @Test func anEchoedKeyIsRedactedBeforeTheBodyIsCut() async throws {
        let key = "fh-Zq9TOKEN42abcdef"
        server.route("GET", "/quote") { request in
            let padding = Int(request.queryValue("symbol")?.dropFirst() ?? "") ?? 0
            return LoopbackResponse(status: 401, body: Array((String(repeating: "a", count: padding) + key + " is not a valid token").utf8))
        }
        let finnhub = FinnhubProvider(name: "stocks", transport: CurlHTTPTransport(), apiKey: key, baseURL: server.baseURL)
        for padding in 170...201 {
            do {
                _ = try await finnhub.fetch(["P\(padding)"])
                Issue.record("a 401 answer gave quotes")
            } catch {
                let runs = (0...(key.count - 6)).map { String(Array(key)[$0..<($0 + 6)]) }
                #expect(runs.allSatisfy { !error.message.contains($0) }, "at \(padding): \(error.message)")
            }
        }
    }

    @Test func finnhubRateLimitAndNoAccessNeverShowTheKey() async throws {
        server.route("GET", "/quote", sequence: [
            try fixture("finnhub", "error_http429_missing_token_plaintext.txt", status: 429, headers: [HTTPHeader("Retry-After", "9")]),
            try fixture("finnhub", "error_no_access_http401_403.json", status: 403),
        ])
        let finnhub = FinnhubProvider(name: "stocks", transport: CurlHTTPTransport(), apiKey: "sekret-key", baseURL: server.baseURL)
        let limited = await #expect(throws: ProviderError.self) { try await finnhub.fetch(["AAPL"]) }
        #expect(limited?.kind == .rateLimited)
        #expect(limited?.retryAfterSeconds == 9)
        let forbidden = await #expect(throws: ProviderError.self) { try await finnhub.fetch(["0A02.L"]) }
        #expect(forbidden?.kind == .permanent)
        #expect(forbidden?.message.contains("You don't have access") == true)
        server.stop()
        let refused = await #expect(throws: ProviderError.self) { try await finnhub.fetch(["AAPL"]) }
        #expect(refused?.kind == .transient)
        for error in [limited, forbidden, refused] { #expect(error?.message.contains("sekret") == false) }
    }

    @Test func finnhubSearch() async throws {
        server.route("GET", "/search", sequence: [try fixture("finnhub", "search_apple_docs_sample.json")])
        let finnhub = FinnhubProvider(name: "stocks", transport: CurlHTTPTransport(), apiKey: "k", baseURL: server.baseURL)
        #expect(try await finnhub.search("apple").count == 4)
        #expect(server.requests.first?.queryValue("q") == "apple")
    }

    // MARK: Coinbase

    @Test func coinbaseOnePairPerRequestTimedByTheDateHeader() async throws {
        let spot = try fixture("coinbase", "v2_prices_spot_BTC-USD.json", headers: [HTTPHeader("Date", "Wed, 02 Oct 2024 20:00:00 GMT")])
        server.route("GET", "/v2/prices/BTC-USD/spot", sequence: [spot])
        server.route("GET", "/v2/prices/BTC-XXX/spot", sequence: [try fixture("coinbase", "v2_error_invalid_request_exchange-rates.json", status: 400)])
        let clock = ManualWallClock()
        let coinbase = CoinbaseProvider(name: "coinbase", transport: CurlHTTPTransport(), baseURL: server.baseURL, now: clock.function)
        let answers = try await coinbase.fetch(["BTC-USD", "BTC-XXX"])
        #expect(answers["BTC-USD"]?.value?.price == ProviderFixtures.decimal("755.96"))
        #expect(answers["BTC-USD"]?.value?.time.rfc3339 == "2024-10-02T20:00:00Z")
        #expect(answers["BTC-XXX"]?.error?.kind == .unknownSymbol)
        #expect(CoinbaseProvider.maximumBatchSize == 1)
    }

    @Test func coinbaseHTMLIsNeverAPrice() async throws {
        server.route("GET", "/v2/prices/BTC-USD/spot") { _ in .html("<html>Just a moment...</html>") }
        let coinbase = CoinbaseProvider(name: "coinbase", transport: CurlHTTPTransport(), baseURL: server.baseURL)
        let error = await #expect(throws: ProviderError.self) { try await coinbase.fetch(["BTC-USD"]) }
        #expect(error?.kind == .malformedResponse)
    }

    // MARK: Binance

    @Test func binanceBatchesAndIsolatesAnUnknownSymbol() async throws {
        let list = try fixture("binance", "ticker_24hr_MINI_list_docs.json")
        let invalid = try fixture("binance", "error_invalid_symbol_-1121_docs.json", status: 400)
        server.route("GET", "/api/v3/ticker/24hr") { request in
            if let symbols = request.queryValue("symbols") {
                return symbols == #"["BNBBTC","LTCBTC"]"# ? list : invalid
            }
            switch request.queryValue("symbol") {
            case "BNBBTC"?, "LTCBTC"?: return list // the decoder picks the requested one from the list
            default: return invalid
            }
        }
        let binance = BinanceProvider(name: "binance", transport: CurlHTTPTransport(), baseURL: server.baseURL)
        let batch = try await binance.fetch(["BNBBTC", "LTCBTC"])
        #expect(batch["BNBBTC"]?.value?.price == ProviderFixtures.decimal("4.000002"))
        #expect(server.requests.count == 1)

        let mixed = try await binance.fetch(["BNBBTC", "NOPE", "ltcbtc"])
        #expect(mixed["BNBBTC"]?.value?.price == ProviderFixtures.decimal("4.000002"))
        #expect(mixed["ltcbtc"]?.value?.price == ProviderFixtures.decimal("0.07"))
        #expect(mixed["NOPE"]?.error?.kind == .unknownSymbol)
        #expect(server.requests.dropFirst().map { $0.queryValue("symbol") ?? $0.queryValue("symbols") ?? "" }
                    == [#"["BNBBTC","NOPE","LTCBTC"]"#, "BNBBTC", "NOPE", "LTCBTC"])
    }

    @Test func binanceBanIsRateLimited() async throws {
        server.route("GET", "/api/v3/ticker/24hr") { _ in
            .json(#"{"code":-1003,"msg":"Way too many requests; IP banned until 1700000000000."}"#, status: 418,
                  headers: [HTTPHeader("Retry-After", "600")])
        }
        let binance = BinanceProvider(name: "binance", transport: CurlHTTPTransport(), baseURL: server.baseURL)
        let error = await #expect(throws: ProviderError.self) { try await binance.fetch(["BTCUSDT"]) }
        #expect(error?.kind == .rateLimited)
        #expect(error?.retryAfterSeconds == 600)
    }
}
