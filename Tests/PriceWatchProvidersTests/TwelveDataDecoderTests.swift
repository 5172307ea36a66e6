import PriceWatchCore
import PriceWatchCurl
import PriceWatchProviders
import PriceWatchTestKit
import Testing

/// Twelve Data's quote and error payloads, every recorded one, and the adapter over loopback.
@Suite struct TwelveDataDecoderTests {
    static let fixtures: Set<String> = [
        "quote_AAPL_openapi_example.json", "quote_multi_AAPL_MSFT.json", "time_series_multi_AAPL_plus_INVALID_symbol_error.json",
        "error_404_symbol_missing_or_invalid.json", "error_429_out_of_api_credits.json",
    ]

    private func d(_ text: String) -> ExactDecimal { ProviderFixtures.decimal(text) }

    @Test func singleQuote() throws {
        let answers = try TwelveDataDecoder.decode(try ProviderFixtures.response("twelvedata", "quote_AAPL_openapi_example.json"),
                                                   requested: ["AAPL"])
        #expect(answers["AAPL"]?.value == Quote(symbol: "AAPL", price: d("148.85001"), time: Timestamp(seconds: 1_631_772_000),
                                                 previousClose: d("149.09"), currency: "USD", exchange: "NASDAQ", marketState: "CLOSED", dayVolume: d("67903927")))
    }

    @Test func batchKeyedBySymbol() throws {
        let answers = try TwelveDataDecoder.decode(try ProviderFixtures.response("twelvedata", "quote_multi_AAPL_MSFT.json"),
                                                   requested: ["AAPL", "msft", "NOPE"])
        #expect(answers["AAPL"]?.value == Quote(symbol: "AAPL", price: d("229.87"), time: Timestamp(seconds: 1_732_305_600),
                                                 previousClose: d("228.52"), currency: "USD", exchange: "NASDAQ", marketState: "CLOSED", dayVolume: d("35462000")))
        #expect(answers["msft"]?.value?.price == d("414.17"))
        #expect(answers["NOPE"]?.error?.kind == .unknownSymbol)
    }

    @Test func anErrorUnderOneSymbolFailsOnlyThatSymbol() throws {
        let answers = try TwelveDataDecoder.decode(
            try ProviderFixtures.response("twelvedata", "time_series_multi_AAPL_plus_INVALID_symbol_error.json"), requested: ["AAPL", "INVALID"])
        #expect(answers["INVALID"]?.error?.kind == .unknownSymbol)
        #expect(answers["INVALID"]?.error?.message.contains("**symbol** not found: INVALID") == true)
        // A time series entry has no quote fields: malformed, never a price.
        #expect(answers["AAPL"]?.error?.kind == .malformedResponse)
    }

    @Test func missingSymbolErrorIsUnknownAloneAndPermanentForABatch() throws {
        for status in [200, 404] {
            let response = try ProviderFixtures.response("twelvedata", "error_404_symbol_missing_or_invalid.json", status: status)
            #expect(try TwelveDataDecoder.decode(response, requested: ["VTSAX"])["VTSAX"]?.error?.kind == .unknownSymbol)
            let error = try #require(throws: ProviderError.self) { try TwelveDataDecoder.decode(response, requested: ["A", "B"]) }
            #expect(error.kind == .permanent)
        }
    }

    @Test func outOfCreditsIsRateLimited() throws {
        for status in [200, 429] {
            let response = try ProviderFixtures.response("twelvedata", "error_429_out_of_api_credits.json", status: status,
                                                         headers: [HTTPHeader("Retry-After", "42")])
            let error = try #require(throws: ProviderError.self) { try TwelveDataDecoder.decode(response, requested: ["AAPL"]) }
            #expect(error.kind == .rateLimited)
            #expect(error.retryAfterSeconds == 42)
            #expect(error.message.contains("run out of API credits"))
        }
    }

    @Test func htmlIsMalformed() throws {
        let error = try #require(throws: ProviderError.self) { try TwelveDataDecoder.decode(ProviderFixtures.htmlPage, requested: ["AAPL"]) }
        #expect(error.kind == .malformedResponse)
    }

    @Test func adapterSendsTheKeyInAHeader() async throws {
        let server = try LoopbackHTTPServer()
        let multi = try ProviderFixtures.bytes("twelvedata", "quote_multi_AAPL_MSFT.json")
        server.route("GET", "/quote") { request in
            request.header("Authorization") == "apikey td-key" ? LoopbackResponse(body: multi) : .status(401)
        }
        let provider = TwelveDataProvider(name: "td", transport: CurlHTTPTransport(), apiKey: "td-key", baseURL: server.baseURL)
        let answers = try await provider.fetch(["AAPL", "MSFT"])
        #expect(answers["MSFT"]?.value?.previousClose == d("412.87"))
        #expect(server.requests.map(\.target) == ["/quote?symbol=AAPL,MSFT"])
        #expect(TwelveDataProvider.maximumBatchSize == 8)
    }
}
