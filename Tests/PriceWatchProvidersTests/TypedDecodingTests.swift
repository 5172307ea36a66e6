import PriceWatchCore
import PriceWatchProviders
import Testing

/// Answers decoded into typed structures per service (issue 16.5): only the fields a decoder
/// reads are decoded, one odd value fails only its own symbol, and nothing unknown, partial or
/// null ever becomes a price.
@Suite struct TypedDecodingTests {
    private func d(_ text: String) -> ExactDecimal { ProviderFixtures.decimal(text) }

    /// A number no `Double` holds, in a field the decoder never reads and in the price of
    /// another entry: the first is skipped, the second fails its symbol only. (A generic JSON
    /// tree decoded every value and failed the whole batch.)
    @Test func anUnreadableValueFailsItsSymbolOnlyAndUnreadFieldsAreNeverDecoded() throws {
        let response = ProviderFixtures.json("""
            {"quoteResponse":{"result":[
              {"symbol":"AAPL","marketCap":1e400,"regularMarketPrice":244.6,"priceHint":2,"regularMarketTime":1739566800},
              {"symbol":"HUGE","regularMarketPrice":1e400,"priceHint":2,"regularMarketTime":1739566800},
              {"symbol":"BABA","regularMarketPrice":124.73,"priceHint":2,"regularMarketTime":1739566802}
            ],"error":null}}
            """)
        let answers = try YahooQuoteDecoder.decode(response, requested: ["AAPL", "HUGE", "BABA"])
        #expect(answers["AAPL"]?.value?.price == d("244.6"))
        #expect(answers["BABA"]?.value?.price == d("124.73"))
        #expect(answers["HUGE"]?.error?.kind == .malformedResponse)
        #expect(answers["HUGE"]?.error?.message.contains("HUGE") == true)
    }

    @Test func nullPartialAndMistypedFieldsNeverBecomePrices() throws {
        let yahoo = try YahooQuoteDecoder.decode(ProviderFixtures.json("""
            {"quoteResponse":{"result":[
              {"symbol":"NULL","regularMarketPrice":null,"regularMarketTime":1739566800},
              {"symbol":"ARRAY","regularMarketPrice":[244.6],"regularMarketTime":1739566800},
              {"symbol":"BOOL","regularMarketPrice":true,"regularMarketTime":1739566800},
              {"symbol":"RAWTEXT","regularMarketPrice":{"raw":"244.6"},"regularMarketTime":1739566800},
              {"symbol":"NOTIME","regularMarketPrice":244.6,"regularMarketTime":null},
              {"symbol":"FRACTIME","regularMarketPrice":244.6,"regularMarketTime":1739566800.5},
              "not an entry", 42, null
            ],"error":null}}
            """), requested: ["NULL", "ARRAY", "BOOL", "RAWTEXT", "NOTIME", "FRACTIME"])
        for symbol in ["NULL", "ARRAY", "BOOL", "RAWTEXT", "NOTIME", "FRACTIME"] {
            #expect(yahoo[symbol]?.error?.kind == .malformedResponse, "\(symbol): \(String(describing: yahoo[symbol]))")
        }
        #expect(yahoo["ARRAY"]?.error?.message.contains("found an array") == true)

        let binance = try BinanceDecoder.decode(ProviderFixtures.json("""
            [{"symbol":"AUSDT","lastPrice":null,"closeTime":1},{"symbol":"BUSDT","lastPrice":4.5,"closeTime":1},
             {"symbol":"CUSDT","lastPrice":"4.5","closeTime":"1"},{"symbol":"DUSDT","lastPrice":"4.5"},17,
             {"symbol":"EUSDT","lastPrice":"4.5","closeTime":1700000000000,"prevClosePrice":{"x":1}}]
            """), requested: ["AUSDT", "BUSDT", "CUSDT", "DUSDT", "EUSDT"])
        for symbol in ["AUSDT", "BUSDT", "CUSDT", "DUSDT"] {
            #expect(binance[symbol]?.error?.kind == .malformedResponse, "\(symbol)")
        }
        #expect(binance["EUSDT"]?.value?.price == d("4.5"))
        #expect(binance["EUSDT"]?.value?.previousClose == nil)

        let coinbase = try CoinbaseDecoder.quote(ProviderFixtures.json(#"{"data":{"amount":null,"currency":"USD"}}"#),
                                                 symbol: "BTC-USD", received: Timestamp(seconds: 1))
        #expect(coinbase.error?.kind == .malformedResponse)
        #expect(throws: ProviderError.self) {
            try CoinbaseDecoder.quote(ProviderFixtures.json(#"{"data":"64000.00"}"#), symbol: "BTC-USD", received: Timestamp(seconds: 1))
        }

        let finnhub = try FinnhubDecoder.quote(ProviderFixtures.json(#"{"c":"227.1","t":1727985601,"pc":null}"#), symbol: "AAPL")
        #expect(finnhub.error?.kind == .malformedResponse)

        let kraken = try KrakenDecoder.quote(ProviderFixtures.json(#"{"error":[],"result":{"XXBTZEUR":{"c":[null,"1"],"o":"1"}}}"#),
                                             symbol: "XBTEUR", received: Timestamp(seconds: 1))
        #expect(kraken.error?.kind == .malformedResponse)

        let twelve = try TwelveDataDecoder.decode(ProviderFixtures.json("""
            {"AAPL":{"symbol":"AAPL","close":227.1,"timestamp":1727985601},"MSFT":{"symbol":"MSFT","close":"415.2","timestamp":null},
             "IBM":"oops","NVDA":{"symbol":"NVDA","close":"120.5","timestamp":1727985601,"is_market_open":"yes"}}
            """), requested: ["AAPL", "MSFT", "IBM", "NVDA"])
        #expect(twelve["AAPL"]?.error?.kind == .malformedResponse)
        #expect(twelve["MSFT"]?.error?.kind == .malformedResponse)
        #expect(twelve["IBM"]?.error?.kind == .unknownSymbol)
        #expect(twelve["NVDA"]?.value?.price == d("120.5"))
        #expect(twelve["NVDA"]?.value?.marketState == nil)
    }

    @Test func aChartWithAnUnreadableIndicatorStillHasItsMetaQuote() {
        let response = ProviderFixtures.json("""
            {"chart":{"result":[{"meta":{"currency":"USD","regularMarketPrice":244.6,"priceHint":2,"regularMarketTime":1739566800,
              "previousClose":241.53,"currentTradingPeriod":{"regular":{"start":1739543400,"end":1739566800},"pre":"x"}},
              "indicators":{"quote":[{"close":[1e400,null,244.6]}]}}],"error":null}}
            """)
        let quote = YahooChartDecoder.decode(response, symbol: "AAPL", now: Timestamp(seconds: 1_739_560_000))
        #expect(quote.value?.price == d("244.6"))
        #expect(quote.value?.marketState == "REGULAR")
    }
}
