import PriceWatchCore
import PriceWatchCurl
import PriceWatchProviders
import PriceWatchTestKit
import Testing

/// Kraken's ticker and error payloads, every recorded one, and the adapter over loopback.
@Suite struct KrakenDecoderTests {
    static let fixtures: Set<String> = ["ticker_XXBTZEUR.json", "error_unknown_asset_pair_RECONSTRUCTED.json"]

    let received = Timestamp(seconds: 1_700_000_000)

    @Test func tickerUnderKrakensOwnPairName() throws {
        let response = try ProviderFixtures.response("kraken", "ticker_XXBTZEUR.json", headers: [HTTPHeader("Date", "Thu, 02 Jun 2016 10:00:00 GMT")])
        let quote = try #require(try KrakenDecoder.quote(response, symbol: "XBTEUR", received: received).value)
        #expect(quote == Quote(symbol: "XBTEUR", price: ProviderFixtures.decimal("560.87711"),
                               time: Timestamp(year: 2016, month: 6, day: 2, hour: 10) ?? received,
                               previousClose: ProviderFixtures.decimal("568.9891"), dayVolume: ProviderFixtures.decimal("84.23095922")))
        let undated = try ProviderFixtures.response("kraken", "ticker_XXBTZEUR.json")
        #expect(try KrakenDecoder.quote(undated, symbol: "XBTEUR", received: received).value?.time == received)
    }

    @Test func unknownPair() throws {
        let response = try ProviderFixtures.response("kraken", "error_unknown_asset_pair_RECONSTRUCTED.json")
        let error = try #require(try KrakenDecoder.quote(response, symbol: "NOPE", received: received).error)
        #expect(error.kind == .unknownSymbol)
        #expect(error.message == "kraken does not know the pair NOPE (EQuery:Unknown asset pair)")
    }

    @Test func errorsInTheBody() throws {
        let cases: [(String, ProviderError.Kind)] = [
            (#"{"error":["EAPI:Rate limit exceeded"]}"#, .rateLimited), (#"{"error":["EGeneral:Too many requests"]}"#, .rateLimited),
            (#"{"error":["EService:Unavailable"]}"#, .transient), (#"{"error":["EGeneral:Invalid arguments"]}"#, .permanent),
        ]
        for (body, kind) in cases {
            let error = try #require(throws: ProviderError.self) { try KrakenDecoder.quote(ProviderFixtures.json(body), symbol: "XBTUSD", received: received) }
            #expect(error.kind == kind, "\(body)")
        }
        #expect(throws: ProviderError.self) { try KrakenDecoder.quote(ProviderFixtures.htmlPage, symbol: "XBTUSD", received: received) }
        #expect(throws: ProviderError.self) { try KrakenDecoder.quote(ProviderFixtures.json(#"{"error":[],"result":{}}"#), symbol: "XBTUSD", received: received) }
    }

    @Test func adapterOnePairPerRequest() async throws {
        let server = try LoopbackHTTPServer()
        let ticker = try ProviderFixtures.bytes("kraken", "ticker_XXBTZEUR.json")
        let unknown = try ProviderFixtures.bytes("kraken", "error_unknown_asset_pair_RECONSTRUCTED.json")
        server.route("GET", "/0/public/Ticker") { request in
            LoopbackResponse(body: request.queryValue("pair") == "XBTEUR" ? ticker : unknown)
        }
        let provider = KrakenProvider(name: "kraken", transport: CurlHTTPTransport(), baseURL: server.baseURL, now: { Timestamp(seconds: 1) })
        let answers = try await provider.fetch(["XBTEUR", "NOPE"])
        #expect(answers["XBTEUR"]?.value?.price == ProviderFixtures.decimal("560.87711"))
        #expect(answers["NOPE"]?.error?.kind == .unknownSymbol)
        #expect(server.requests.count == 2)
    }
}
