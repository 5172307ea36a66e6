import PriceWatchCore
import PriceWatchCurl
import PriceWatchProviders
import PriceWatchTestKit
import Testing

/// CoinGecko's keyless simple-price API over the real libcurl transport and a loopback server:
/// the recorded answer, pairs batched into one request, coin ids from tickers, the previous
/// close from the 24-hour change, unknown coins, and the service's rate-limit and HTML answers.
@Suite struct CoinGeckoProviderTests {
    static let fixtures: Set<String> = ["simple_price_unique-network_usd_24h_change.json"]
    let server: LoopbackHTTPServer

    init() throws {
        server = try LoopbackHTTPServer()
    }

    @Test func theRecordedAnswerIsAQuoteTimedByTheDateHeader() async throws {
        let recorded = LoopbackResponse(headers: [HTTPHeader("Date", "Tue, 13 Dec 2022 10:00:00 GMT")],
                                        body: try ProviderFixtures.bytes("coingecko", "simple_price_unique-network_usd_24h_change.json"))
        server.route("GET", "/api/v3/simple/price", sequence: [recorded])
        let provider = CoinGeckoProvider(name: "gecko", transport: CurlHTTPTransport(), baseURL: server.baseURL)
        let answers = try await provider.fetch(["unique-network-USD"])
        let quote = try #require(answers["unique-network-USD"]?.value)
        #expect(quote.price == ProviderFixtures.decimal("0.00480102"))
        #expect(quote.currency == "USD")
        #expect(quote.time.rfc3339 == "2022-12-13T10:00:00Z")
        // 0.00480102 / 1.019281110755067, to 8 digits.
        #expect(quote.previousClose == ProviderFixtures.decimal("0.00471020"))
        let request = try #require(server.requests.first)
        #expect(request.queryValue("ids") == "unique-network")
        #expect(request.queryValue("vs_currencies") == "usd")
        #expect(request.queryValue("include_24hr_change") == "true")
    }

    @Test func pairsShareOneRequestAndAnUnknownCoinIsReportedAsSuch() async throws {
        server.route("GET", "/api/v3/simple/price") { _ in
            .json(#"{"bitcoin":{"usd":67012.51,"eur":61990.2,"usd_24h_change":-1.5,"eur_24h_change":null,"last_updated_at":1711356300},"ethereum":{"usd":3401.2}}"#)
        }
        let provider = CoinGeckoProvider(name: "gecko", transport: CurlHTTPTransport(), baseURL: server.baseURL)
        let answers = try await provider.fetch(["BTC-USD", "btc-eur", "ETH-USD", "NOPECOIN-USD", "BTCUSD"])
        #expect(server.requests.count == 1)
        #expect(server.requests.first?.queryValue("ids") == "bitcoin,ethereum,nopecoin")
        #expect(server.requests.first?.queryValue("vs_currencies") == "eur,usd")
        #expect(answers["BTC-USD"]?.value?.price == ProviderFixtures.decimal("67012.51"))
        #expect(answers["BTC-USD"]?.value?.time.rfc3339 == "2024-03-25T08:45:00Z")
        #expect(answers["BTC-USD"]?.value?.previousClose == ProviderFixtures.decimal("68033.00507614"))
        #expect(answers["btc-eur"]?.value?.currency == "EUR")
        #expect(answers["btc-eur"]?.value?.previousClose == nil)
        #expect(answers["ETH-USD"]?.value?.price == ProviderFixtures.decimal("3401.2"))
        #expect(answers["NOPECOIN-USD"]?.error?.kind == .unknownSymbol)
        #expect(answers["BTCUSD"]?.error?.kind == .unknownSymbol)
        #expect(CoinGeckoProvider.maximumBatchSize == 50)
    }

    @Test func rateLimitsAndHTMLPagesAreNeverPrices() async throws {
        server.route("GET", "/api/v3/simple/price", sequence: [
            LoopbackResponse(status: 429, headers: [HTTPHeader("Retry-After", "30")],
                             body: Array(#"{"status":{"error_code":429,"error_message":"You've exceeded the Rate Limit."}}"#.utf8)),
            .html("<html>Just a moment...</html>"),
            .json(#"{"bitcoin":{"usd":"sixty"}}"#),
        ])
        let provider = CoinGeckoProvider(name: "gecko", transport: CurlHTTPTransport(), baseURL: server.baseURL)
        let limited = await #expect(throws: ProviderError.self) { try await provider.fetch(["BTC-USD"]) }
        #expect(limited?.kind == .rateLimited)
        #expect(limited?.retryAfterSeconds == 30)
        #expect(limited?.message.contains("exceeded the Rate Limit") == true)
        let page = await #expect(throws: ProviderError.self) { try await provider.fetch(["BTC-USD"]) }
        #expect(page?.kind == .malformedResponse)
        let odd = try await provider.fetch(["BTC-USD"])
        #expect(odd["BTC-USD"]?.error?.kind == .malformedResponse)
    }
}
