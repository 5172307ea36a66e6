import PriceWatchCore
import PriceWatchProviders
import Testing

/// Binance's ticker and error payloads, every recorded one.
@Suite struct BinanceDecoderTests {
    static let fixtures: Set<String> = [
        "ticker_24hr_MINI_list_docs.json", "ticker_price_list_docs.json", "ticker_price_single_LTCBTC_docs.json",
        "error_invalid_symbol_-1121_docs.json",
    ]

    private func d(_ text: String) -> ExactDecimal { ProviderFixtures.decimal(text) }

    @Test func tickerList() throws {
        let answers = try BinanceDecoder.decode(try ProviderFixtures.response("binance", "ticker_24hr_MINI_list_docs.json"),
                                                requested: ["BNBBTC", "ltcbtc", "ETHBTC"])
        #expect(answers["BNBBTC"]?.value == Quote(symbol: "BNBBTC", price: d("4.000002"), time: Timestamp(milliseconds: 1_499_869_899_040)))
        #expect(answers["ltcbtc"]?.value == Quote(symbol: "ltcbtc", price: d("0.07"), time: Timestamp(milliseconds: 1_656_994_592_899)))
        #expect(answers["ETHBTC"]?.error?.kind == .unknownSymbol)
    }

    @Test func fullTickerHasThePreviousClose() throws {
        let response = ProviderFixtures.json("""
            {"symbol":"BTCUSDT","prevClosePrice":"64000.01000000","lastPrice":"65432.10000000","closeTime":1727899200000}
            """)
        #expect(try BinanceDecoder.decode(response, requested: ["BTCUSDT"])["BTCUSDT"]?.value
                    == Quote(symbol: "BTCUSDT", price: d("65432.1"), time: Timestamp(milliseconds: 1_727_899_200_000), previousClose: d("64000.01")))
    }

    @Test(arguments: ["ticker_price_list_docs.json", "ticker_price_single_LTCBTC_docs.json"])
    func aPriceTickerLacksTheFieldsAndIsMalformed(file: String) throws {
        let answers = try BinanceDecoder.decode(try ProviderFixtures.response("binance", file), requested: ["LTCBTC"])
        let error = try #require(answers["LTCBTC"]?.error)
        #expect(error.kind == .malformedResponse)
        #expect(error.message.contains("lastPrice"))
    }

    @Test func invalidSymbol() throws {
        let response = try ProviderFixtures.response("binance", "error_invalid_symbol_-1121_docs.json", status: 400)
        #expect(BinanceDecoder.rejectsSymbol(response))
        #expect(try BinanceDecoder.decode(response, requested: ["NOPE"])["NOPE"]?.error?.kind == .unknownSymbol)
        let batch = try #require(throws: ProviderError.self) { try BinanceDecoder.decode(response, requested: ["NOPE", "BTCUSDT"]) }
        #expect(batch.kind == .unknownSymbol)
    }

    @Test func rateLimitsAndBans() throws {
        for status in [429, 418] {
            let response = ProviderFixtures.json(#"{"code":-1003,"msg":"Too many requests."}"#, status: status,
                                                 headers: [HTTPHeader("Retry-After", "120")])
            let error = try #require(throws: ProviderError.self) { try BinanceDecoder.decode(response, requested: ["BTCUSDT"]) }
            #expect(error.kind == .rateLimited)
            #expect(error.retryAfterSeconds == 120)
            #expect(error.message.contains("Too many requests. (code -1003)"))
        }
    }

    @Test func htmlIsMalformed() throws {
        let error = try #require(throws: ProviderError.self) { try BinanceDecoder.decode(ProviderFixtures.htmlPage, requested: ["BTCUSDT"]) }
        #expect(error.kind == .malformedResponse)
    }
}
