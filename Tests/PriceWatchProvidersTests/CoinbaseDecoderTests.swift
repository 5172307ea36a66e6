import PriceWatchCore
import PriceWatchProviders
import Testing

/// Coinbase's spot price and error payloads, every recorded one.
@Suite struct CoinbaseDecoderTests {
    static let fixtures: Set<String> = ["v2_prices_spot_BTC-USD.json", "v2_error_invalid_request_exchange-rates.json"]

    let received = Timestamp(seconds: 1_700_000_000)

    @Test func spotPriceAtTheAnswersDate() throws {
        let response = try ProviderFixtures.response("coinbase", "v2_prices_spot_BTC-USD.json",
                                                      headers: [HTTPHeader("Date", "Wed, 02 Oct 2024 20:00:00 GMT")])
        let quote = try #require(try CoinbaseDecoder.quote(response, symbol: "BTC-USD", received: received).value)
        #expect(quote == Quote(symbol: "BTC-USD", price: ProviderFixtures.decimal("755.96"),
                               time: Timestamp(year: 2024, month: 10, day: 2, hour: 20) ?? received, currency: "USD"))
    }

    @Test func withoutADateHeaderTheTimeIsWhenTheAnswerArrived() throws {
        let response = try ProviderFixtures.response("coinbase", "v2_prices_spot_BTC-USD.json", headers: [HTTPHeader("Date", "yesterday")])
        #expect(try CoinbaseDecoder.quote(response, symbol: "BTC-USD", received: received).value?.time == received)
    }

    @Test func amountsAreExactAndRoundedOnlyPastEightDigits() throws {
        let cases = ["0.000012345678": "0.00001235", "65432.10": "65432.1", "1.123456784": "1.12345678"]
        for (amount, expected) in cases {
            let response = ProviderFixtures.json(#"{"data":{"base":"X","currency":"USD","amount":"\#(amount)"}}"#)
            #expect(try CoinbaseDecoder.quote(response, symbol: "X-USD", received: received).value?.price
                        == ProviderFixtures.decimal(expected), "\(amount)")
        }
        for amount in ["0", "-1.5", "1e3", "abc"] {
            let response = ProviderFixtures.json(#"{"data":{"base":"X","currency":"USD","amount":"\#(amount)"}}"#)
            #expect(try CoinbaseDecoder.quote(response, symbol: "X-USD", received: received).error?.kind == .malformedResponse, "\(amount)")
        }
        let number = ProviderFixtures.json(#"{"data":{"base":"X","currency":"USD","amount":12.5}}"#)
        #expect(try CoinbaseDecoder.quote(number, symbol: "X-USD", received: received).error?.kind == .malformedResponse)
    }

    @Test func errorEnvelopeOn400Or404IsAnUnknownPair() throws {
        for status in [400, 404] {
            let response = try ProviderFixtures.response("coinbase", "v2_error_invalid_request_exchange-rates.json", status: status)
            let error = try #require(try CoinbaseDecoder.quote(response, symbol: "BTC-XXX", received: received).error)
            #expect(error.kind == .unknownSymbol)
            #expect(error.message == "coinbase does not know the pair BTC-XXX (invalid_request: Invalid currency (USD))")
        }
        let server = try ProviderFixtures.response("coinbase", "v2_error_invalid_request_exchange-rates.json", status: 503,
                                                   headers: [HTTPHeader("Retry-After", "5")])
        let error = try #require(throws: ProviderError.self) { try CoinbaseDecoder.quote(server, symbol: "BTC-USD", received: received) }
        #expect(error.kind == .transient)
        #expect(error.retryAfterSeconds == 5)
    }

    @Test func htmlIsMalformed() throws {
        let error = try #require(throws: ProviderError.self) {
            try CoinbaseDecoder.quote(ProviderFixtures.htmlPage, symbol: "BTC-USD", received: received)
        }
        #expect(error.kind == .malformedResponse)
    }
}
