import PriceWatchCore
import PriceWatchProviders
import Testing

/// Finnhub's quote, search and error payloads, every recorded one.
@Suite struct FinnhubDecoderTests {
    static let fixtures: Set<String> = [
        "quote_AAPL_docs_sample_legacy_no_d_dp.json", "quote_AAPL_with_d_dp_from_js_literal.json",
        "quote_with_d_dp_from_finance-quote_comment.json", "quote_DJI_all_zero_unsupported_symbol.json",
        "search_apple_docs_sample.json", "stock_candle_no_data.json", "error_no_access_http401_403.json",
        "error_http429_missing_token_plaintext.txt", "error_http429_rate_limit_message_text.txt",
    ]

    private func d(_ text: String) -> ExactDecimal { ProviderFixtures.decimal(text) }

    @Test(arguments: [
        ("quote_AAPL_docs_sample_legacy_no_d_dp.json", "261.74", "259.45", Int64(1_582_641_000)),
        ("quote_AAPL_with_d_dp_from_js_literal.json", "175.43", "172.99", Int64(1_636_322_400)),
        ("quote_with_d_dp_from_finance-quote_comment.json", "291.15", "295.63", Int64(1_781_294_400)),
    ])
    func quote(file: String, price: String, previousClose: String, seconds: Int64) throws {
        let result = try FinnhubDecoder.quote(try ProviderFixtures.response("finnhub", file), symbol: "AAPL")
        #expect(result.value == Quote(symbol: "AAPL", price: d(price), time: Timestamp(seconds: seconds), previousClose: d(previousClose)))
    }

    @Test func allZerosMeansUnknownSymbol() throws {
        let result = try FinnhubDecoder.quote(try ProviderFixtures.response("finnhub", "quote_DJI_all_zero_unsupported_symbol.json"),
                                              symbol: "^DJI")
        #expect(result.error?.kind == .unknownSymbol)
        #expect(result.error?.message.contains("^DJI") == true)
        // The newer shape with d and dp null is the same answer.
        let newer = try FinnhubDecoder.quote(ProviderFixtures.json(#"{"c":0,"d":null,"dp":null,"h":0,"l":0,"o":0,"pc":0,"t":0}"#), symbol: "NOPE")
        #expect(newer.error?.kind == .unknownSymbol)
    }

    @Test func anAnswerWithoutPriceFieldsIsMalformedNotUnknown() throws {
        let result = try FinnhubDecoder.quote(try ProviderFixtures.response("finnhub", "stock_candle_no_data.json"), symbol: "AAPL")
        #expect(result.error?.kind == .malformedResponse)
        let negative = try FinnhubDecoder.quote(ProviderFixtures.json(#"{"c":-1,"pc":2,"t":1700000000}"#), symbol: "AAPL")
        #expect(negative.error?.kind == .malformedResponse)
        let noTime = try FinnhubDecoder.quote(ProviderFixtures.json(#"{"c":12.5,"pc":2,"t":0}"#), symbol: "AAPL")
        #expect(noTime.error?.kind == .malformedResponse)
    }

    @Test func noAccessIsPermanentWithFinnhubsMessage() throws {
        for status in [401, 403] {
            let response = try ProviderFixtures.response("finnhub", "error_no_access_http401_403.json", status: status)
            let error = try #require(throws: ProviderError.self) { try FinnhubDecoder.quote(response, symbol: "0A02.L") }
            #expect(error.kind == .permanent)
            #expect(error.message == "finnhub quote: HTTP \(status): You don't have access to this resource.")
        }
        let inBody = try #require(throws: ProviderError.self) {
            try FinnhubDecoder.quote(try ProviderFixtures.response("finnhub", "error_no_access_http401_403.json"), symbol: "X")
        }
        #expect(inBody.kind == .permanent)
    }

    @Test func rateLimitTextsAreRateLimitedWithRetryAfter() throws {
        let plain = try ProviderFixtures.response("finnhub", "error_http429_missing_token_plaintext.txt", status: 429,
                                                  headers: [HTTPHeader("Retry-After", "60")])
        let error = try #require(throws: ProviderError.self) { try FinnhubDecoder.quote(plain, symbol: "SPY") }
        #expect(error.kind == .rateLimited)
        #expect(error.retryAfterSeconds == 60)
        #expect(error.message.contains("API limit reached. Please sign up for a free account"))

        // As Finnhub sends it: the text in {"error": …}, the wait as X-Ratelimit-Reset.
        let text = try ProviderFixtures.text("finnhub", "error_http429_rate_limit_message_text.txt")
        let json = ProviderFixtures.json("{\"error\":\"\(text)\"}", status: 429, headers: [
            HTTPHeader("Date", "Tue, 14 Nov 2023 22:13:20 GMT"), HTTPHeader("X-Ratelimit-Reset", "1700000045"),
        ])
        let limited = try #require(throws: ProviderError.self) { try FinnhubDecoder.quote(json, symbol: "SPY") }
        #expect(limited.kind == .rateLimited)
        #expect(limited.retryAfterSeconds == 45)
        #expect(limited.message.contains("Remaining Limit: 0"))

        // A nonsense reset time from a proxy or mirror is ignored, never an overflow.
        let nonsense = ProviderFixtures.json("{\"error\":\"API limit reached.\"}", status: 429, headers: [
            HTTPHeader("Date", "Tue, 14 Nov 2023 22:13:20 GMT"), HTTPHeader("X-Ratelimit-Reset", "-9223372036854775808"),
        ])
        let ignored = try #require(throws: ProviderError.self) { try FinnhubDecoder.quote(nonsense, symbol: "SPY") }
        #expect(ignored.kind == .rateLimited)
        #expect(ignored.retryAfterSeconds == nil)
    }

    @Test func htmlIsMalformed() throws {
        let error = try #require(throws: ProviderError.self) { try FinnhubDecoder.quote(ProviderFixtures.htmlPage, symbol: "AAPL") }
        #expect(error.kind == .malformedResponse)
        #expect(throws: ProviderError.self) { try FinnhubDecoder.search(ProviderFixtures.htmlPage) }
    }

    @Test func search() throws {
        let matches = try FinnhubDecoder.search(try ProviderFixtures.response("finnhub", "search_apple_docs_sample.json"))
        #expect(matches.map(\.symbol) == ["AAPL", "AAPL.SW", "APC.BE", "APC.DE"])
        #expect(matches.first == SymbolMatch(symbol: "AAPL", name: "APPLE INC", exchange: nil, type: "Common Stock"))
    }
}
