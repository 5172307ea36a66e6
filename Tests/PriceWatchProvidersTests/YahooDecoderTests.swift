import Foundation
import PriceWatchCore
import PriceWatchProviders
import Testing

/// Yahoo's v7 quote, v8 chart, v1 search, getcrumb and error payloads, every recorded one.
@Suite struct YahooDecoderTests {
    static let fixtures: Set<String> = [
        "quote_AAPL.json", "quote_AAPL_BABA_multi.json", "quote_BTC-USD.json", "quote_NONEXIST_empty_result.json",
        "quote_v6_http404_endpoint_gone.json", "quote_v7_http401_invalid_crumb_2023.json",
        "quote_v7_http401_invalid_crumb_2024.json", "quoteSummary_v10_unknown_symbol_http404.json",
        "chart_AAPL_1d_2022-02-22.json", "chart_AAPL_1m_2024-10-02.json", "chart_BTC-USD_1d.json",
        "chart_SI_not_found_http404.json", "chart_VXAPL_index_no_data_in_range.json",
        "search_AAPL.json", "search_BTC-USD.json", "getcrumb_response.txt",
        "http429_edge_too_many_requests.txt", "http429_too_many_requests_legacy.txt",
    ]

    private func d(_ text: String) -> ExactDecimal { ProviderFixtures.decimal(text) }

    // MARK: v7 quote

    @Test func singleEquityQuote() throws {
        let answers = try YahooQuoteDecoder.decode(try ProviderFixtures.response("yahoo", "quote_AAPL.json"), requested: ["AAPL"])
        let quote = try #require(answers["AAPL"]?.value)
        #expect(quote == Quote(symbol: "AAPL", price: d("244.60"), time: Timestamp(seconds: 1_739_566_800),
                               previousClose: d("241.53"), currency: "USD", exchange: "NMS", marketState: "CLOSED",
                               exchangeTimeZone: "America/New_York", dayVolume: d("40896227")))
        #expect(quote.time.rfc3339 == "2025-02-14T21:00:00Z")
    }

    @Test func batchKeepsEachSymbolAndReportsTheOneYahooLeftOut() throws {
        let answers = try YahooQuoteDecoder.decode(try ProviderFixtures.response("yahoo", "quote_AAPL_BABA_multi.json"),
                                                   requested: ["aapl", "BABA", "NOPE"])
        #expect(answers.count == 3)
        let apple = try #require(answers["aapl"]?.value)
        #expect(apple.symbol == "aapl")
        #expect(apple.price == d("244.6"))
        let alibaba = try #require(answers["BABA"]?.value)
        #expect(alibaba == Quote(symbol: "BABA", price: d("124.73"), time: Timestamp(seconds: 1_739_566_802),
                                 previousClose: d("119.54"), currency: "USD", exchange: "NYQ", marketState: "CLOSED",
                                 exchangeTimeZone: "America/New_York", dayVolume: d("52086273")))
        #expect(answers["NOPE"]?.error?.kind == .unknownSymbol)
    }

    @Test func cryptoQuote() throws {
        let answers = try YahooQuoteDecoder.decode(try ProviderFixtures.response("yahoo", "quote_BTC-USD.json"), requested: ["BTC-USD"])
        #expect(answers["BTC-USD"]?.value == Quote(symbol: "BTC-USD", price: d("96077.45"), time: Timestamp(seconds: 1_739_789_580),
                                                    previousClose: d("96137.88"), currency: "USD", exchange: "CCC",
                                                    marketState: "REGULAR", exchangeTimeZone: "UTC", dayVolume: d("21228961792")))
    }

    @Test func emptyResultMeansUnknownSymbol() throws {
        let answers = try YahooQuoteDecoder.decode(try ProviderFixtures.response("yahoo", "quote_NONEXIST_empty_result.json"),
                                                   requested: ["NONEXIST"])
        let error = try #require(answers["NONEXIST"]?.error)
        #expect(error.kind == .unknownSymbol)
        #expect(error.message.contains("NONEXIST"))
    }

    @Test(arguments: ["quote_v7_http401_invalid_crumb_2023.json", "quote_v7_http401_invalid_crumb_2024.json"])
    func invalidCrumbRejectsTheSession(file: String) throws {
        let response = try ProviderFixtures.response("yahoo", file, status: 401)
        #expect(YahooErrorDecoder.rejectsSession(response))
        #expect(YahooErrorDecoder.description(response)?.hasPrefix("Invalid Crumb") == true)
        let error = try #require(throws: ProviderError.self) { try YahooQuoteDecoder.decode(response, requested: ["AAPL"]) }
        #expect(error.kind == .permanent)
        #expect(error.message.contains("HTTP 401: Invalid Crumb"))
    }

    @Test(arguments: ["quote_v6_http404_endpoint_gone.json", "quoteSummary_v10_unknown_symbol_http404.json"])
    func notFoundEndpointIsPermanentForTheBatch(file: String) throws {
        let response = try ProviderFixtures.response("yahoo", file, status: 404)
        #expect(!YahooErrorDecoder.rejectsSession(response))
        let error = try #require(throws: ProviderError.self) { try YahooQuoteDecoder.decode(response, requested: ["AAPL"]) }
        #expect(error.kind == .permanent)
        #expect(error.message.contains("HTTP 404"))
        #expect(error.message.contains(file.hasPrefix("quote_v6") ? "HTTP 404 Not Found" : "Quote not found for ticker symbol: QQQ,"))
    }

    @Test(arguments: ["http429_edge_too_many_requests.txt", "http429_too_many_requests_legacy.txt"])
    func tooManyRequestsIsRateLimitedWithRetryAfter(file: String) throws {
        let text = try ProviderFixtures.text("yahoo", file)
        let response = try ProviderFixtures.response("yahoo", file, status: 429, headers: [HTTPHeader("Retry-After", "30")])
        let error = try #require(throws: ProviderError.self) { try YahooQuoteDecoder.decode(response, requested: ["AAPL"]) }
        #expect(error.kind == .rateLimited)
        #expect(error.retryAfterSeconds == 30)
        #expect(error.message.contains(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        let crumbError = try #require(throws: ProviderError.self) { try YahooErrorDecoder.crumb(response) }
        #expect(crumbError.kind == .rateLimited)
        let chart = YahooChartDecoder.decode(response, symbol: "AAPL", now: Timestamp(seconds: 0))
        #expect(chart.error?.kind == .rateLimited)
        #expect(chart.error?.retryAfterSeconds == 30)
    }

    @Test func priceIsRoundedToThePriceHint() throws {
        let response = ProviderFixtures.json("""
            {"quoteResponse":{"result":[
              {"symbol":"AAPL","regularMarketPrice":225.6999969482422,"priceHint":2,"regularMarketTime":1727985601,"regularMarketPreviousClose":226.2100067138672},
              {"symbol":"EURUSD=X","regularMarketPrice":1.0412345678,"priceHint":4,"regularMarketTime":1727985601},
              {"symbol":"SHIB-USD","regularMarketPrice":0.000012345678912,"priceHint":8,"regularMarketTime":1727985601},
              {"symbol":"NOHINT","regularMarketPrice":3.135,"regularMarketTime":1727985601}
            ],"error":null}}
            """)
        let answers = try YahooQuoteDecoder.decode(response, requested: ["AAPL", "EURUSD=X", "SHIB-USD", "NOHINT"])
        #expect(answers["AAPL"]?.value?.price.description == "225.7")
        #expect(answers["AAPL"]?.value?.price.formatted(minimumFractionDigits: 2) == "225.70")
        #expect(answers["AAPL"]?.value?.previousClose == d("226.21"))
        #expect(answers["EURUSD=X"]?.value?.price == d("1.0412"))
        #expect(answers["SHIB-USD"]?.value?.price == d("0.00001235"))
        #expect(answers["NOHINT"]?.value?.price == d("3.135"))
    }

    /// A `priceHint` outside 0...8 is not a precision: the price keeps up to 8 digits, as
    /// with no hint, instead of being rounded to whole units (244.6 to 245).
    @Test(arguments: [-1, 9, 1_000_000_000_000])
    func priceHintOutsideZeroToEightIsAbsent(hint: Int) throws {
        let response = ProviderFixtures.json("""
            {"quoteResponse":{"result":[
              {"symbol":"AAPL","regularMarketPrice":244.6,"priceHint":\(hint),"regularMarketTime":1739566800,"regularMarketPreviousClose":241.53}
            ],"error":null}}
            """)
        let answers = try YahooQuoteDecoder.decode(response, requested: ["AAPL"])
        #expect(answers["AAPL"]?.value?.price == d("244.6"))
        #expect(answers["AAPL"]?.value?.previousClose == d("241.53"))
        let chart = ProviderFixtures.json("""
            {"chart":{"result":[{"meta":{"currency":"USD","symbol":"AAPL","regularMarketPrice":244.6,"priceHint":\(hint),
              "regularMarketTime":1739566800,"previousClose":241.53}}],"error":null}}
            """)
        let quote = YahooChartDecoder.decode(chart, symbol: "AAPL", now: Timestamp(seconds: 1_739_566_800))
        #expect(quote.value?.price == d("244.6"))
    }

    @Test func minorUnitCurrenciesAreConvertedExactly() throws {
        let response = ProviderFixtures.json("""
            {"quoteResponse":{"result":[
              {"symbol":"VOD.L","currency":"GBp","regularMarketPrice":72.41999816894531,"priceHint":2,"regularMarketTime":1700000000,"regularMarketPreviousClose":71.9},
              {"symbol":"NPN.JO","currency":"ZAc","regularMarketPrice":345678,"priceHint":2,"regularMarketTime":1700000000},
              {"symbol":"TEVA.TA","currency":"ILA","regularMarketPrice":5432.1,"priceHint":2,"regularMarketTime":1700000000},
              {"symbol":"TINY.L","currency":"GBp","regularMarketPrice":0.123456789,"priceHint":8,"regularMarketTime":1700000000}
            ],"error":null}}
            """)
        let answers = try YahooQuoteDecoder.decode(response, requested: ["VOD.L", "NPN.JO", "TEVA.TA", "TINY.L"])
        #expect(answers["VOD.L"]?.value?.price == d("0.7242"))
        #expect(answers["VOD.L"]?.value?.previousClose == d("0.719"))
        #expect(answers["VOD.L"]?.value?.currency == "GBP")
        #expect(answers["NPN.JO"]?.value?.price == d("3456.78"))
        #expect(answers["NPN.JO"]?.value?.currency == "ZAR")
        #expect(answers["TEVA.TA"]?.value?.price == d("54.321"))
        #expect(answers["TEVA.TA"]?.value?.currency == "ILS")
        #expect(answers["TINY.L"]?.value?.price == d("0.00123457"))
    }

    @Test func badEntriesFailAloneAndNeverBecomePrices() throws {
        let response = ProviderFixtures.json("""
            {"quoteResponse":{"result":[
              {"symbol":"ZERO","regularMarketPrice":0,"priceHint":2,"regularMarketTime":1700000000},
              {"symbol":"NEG","regularMarketPrice":-3.5,"priceHint":2,"regularMarketTime":1700000000},
              {"symbol":"NOPRICE","priceHint":2,"regularMarketTime":1700000000},
              {"symbol":"NOTIME","regularMarketPrice":10,"priceHint":2},
              {"symbol":"TEXT","regularMarketPrice":"10","priceHint":2,"regularMarketTime":1700000000},
              {"symbol":"RAW","regularMarketPrice":{"raw":10.5,"fmt":"10.50"},"priceHint":2,"regularMarketTime":{"raw":1700000000,"fmt":"x"}}
            ],"error":null}}
            """)
        let answers = try YahooQuoteDecoder.decode(response, requested: ["ZERO", "NEG", "NOPRICE", "NOTIME", "TEXT", "RAW"])
        for symbol in ["ZERO", "NEG", "NOPRICE", "NOTIME", "TEXT"] {
            #expect(answers[symbol]?.error?.kind == .malformedResponse, "\(symbol)")
            #expect(answers[symbol]?.error?.message.contains(symbol) == true)
        }
        #expect(answers["RAW"]?.value?.price == d("10.5"))
        #expect(answers["RAW"]?.value?.time == Timestamp(seconds: 1_700_000_000))
    }

    @Test func htmlOrGarbageWhereJSONWasExpectedIsMalformed() throws {
        for response in [ProviderFixtures.htmlPage, ProviderFixtures.json("  <html>consent</html>"), ProviderFixtures.json("not json"),
                         ProviderFixtures.json(""), ProviderFixtures.json(#"{"finance":{"result":null,"error":{"code":"x","description":"odd"}}}"#)] {
            let error = try #require(throws: ProviderError.self) { try YahooQuoteDecoder.decode(response, requested: ["AAPL"]) }
            #expect(error.kind == .malformedResponse)
            #expect(YahooChartDecoder.decode(response, symbol: "AAPL", now: Timestamp(seconds: 0)).error?.kind == .malformedResponse)
            #expect(throws: ProviderError.self) { try YahooSearchDecoder.decode(response) }
        }
        let html = try #require(throws: ProviderError.self) { try YahooQuoteDecoder.decode(ProviderFixtures.htmlPage, requested: ["AAPL"]) }
        #expect(html.message.contains("HTML"))
    }

    @Test func serverErrorsAreTransient() throws {
        let error = try #require(throws: ProviderError.self) {
            try YahooQuoteDecoder.decode(ProviderFixtures.json("upstream failed", status: 502), requested: ["AAPL"])
        }
        #expect(error.kind == .transient)
        #expect(error.message == "yahoo v7 quote: HTTP 502: upstream failed")
    }

    // MARK: v8 chart

    @Test func chartOfOneDay() throws {
        let response = try ProviderFixtures.response("yahoo", "chart_AAPL_1d_2022-02-22.json")
        let quote = try #require(YahooChartDecoder.decode(response, symbol: "AAPL", now: Timestamp(seconds: 1_742_830_000)).value)
        #expect(quote == Quote(symbol: "AAPL", price: d("220.00"), time: Timestamp(seconds: 1_742_824_293),
                               previousClose: d("167.3"), currency: "USD", exchange: "NMS", marketState: "REGULAR",
                               exchangeTimeZone: "America/New_York", dayVolume: d("5800260")))
    }

    @Test func chartPrefersPreviousCloseOverTheChartsOwn() throws {
        let response = try ProviderFixtures.response("yahoo", "chart_AAPL_1m_2024-10-02.json")
        let quote = try #require(YahooChartDecoder.decode(response, symbol: "AAPL", now: Timestamp(seconds: 1_728_000_000)).value)
        #expect(quote.price == d("225.67"))
        #expect(quote.time.rfc3339 == "2024-10-03T20:00:01Z")
        #expect(quote.previousClose == d("226.78"))
        #expect(quote.marketState == "CLOSED")
    }

    @Test func chartMarketStateFollowsTheTradingPeriods() throws {
        let response = try ProviderFixtures.response("yahoo", "chart_AAPL_1m_2024-10-02.json")
        // pre 1728028800..1728048600, regular ..1728072000, post ..1728086400
        let states = [1_728_028_800: "PRE", 1_728_048_599: "PRE", 1_728_048_600: "REGULAR", 1_728_071_999: "REGULAR",
                      1_728_072_000: "POST", 1_728_086_400: "CLOSED", 1_728_000_000: "CLOSED"]
        for (seconds, state) in states {
            #expect(YahooChartDecoder.decode(response, symbol: "AAPL", now: Timestamp(seconds: Int64(seconds))).value?.marketState == state,
                    "\(seconds)")
        }
    }

    @Test func chartOfCrypto() throws {
        let response = try ProviderFixtures.response("yahoo", "chart_BTC-USD_1d.json")
        let quote = try #require(YahooChartDecoder.decode(response, symbol: "BTC-USD", now: Timestamp(seconds: 1_740_051_840)).value)
        #expect(quote == Quote(symbol: "BTC-USD", price: d("97208.17"), time: Timestamp(seconds: 1_740_051_840),
                               previousClose: d("7200.17"), currency: "USD", exchange: "CCC", marketState: "REGULAR",
                               exchangeTimeZone: "UTC", dayVolume: d("27909466112")))
    }

    @Test func chartWithoutBarsStillHasTheMetaQuote() throws {
        let response = try ProviderFixtures.response("yahoo", "chart_VXAPL_index_no_data_in_range.json")
        let quote = try #require(YahooChartDecoder.decode(response, symbol: "^VXAPL", now: Timestamp(seconds: 1_637_400_000)).value)
        #expect(quote == Quote(symbol: "^VXAPL", price: d("27.37"), time: Timestamp(seconds: 1_637_355_590),
                               previousClose: d("27.96"), currency: "USD", exchange: "WCB", marketState: "CLOSED",
                               exchangeTimeZone: "America/New_York"))
    }

    @Test(arguments: ["chart_SI_not_found_http404.json", "quoteSummary_v10_unknown_symbol_http404.json"])
    func chartNotFoundIsUnknownSymbol(file: String) throws {
        let response = try ProviderFixtures.response("yahoo", file, status: 404)
        let error = try #require(YahooChartDecoder.decode(response, symbol: "SI", now: Timestamp(seconds: 0)).error)
        #expect(error.kind == .unknownSymbol)
        #expect(error.message.contains("SI"))
    }

    // MARK: v1 search

    @Test func searchByTicker() throws {
        let matches = try YahooSearchDecoder.decode(try ProviderFixtures.response("yahoo", "search_AAPL.json"))
        #expect(matches.count == 6) // the seventh entry is a company without a symbol
        #expect(matches.first == SymbolMatch(symbol: "AAPL", name: "Apple Inc.", exchange: "NMS", type: "EQUITY"))
        #expect(matches[1] == SymbolMatch(symbol: "AAPU", name: "Direxion Daily AAPL Bull 2X Shares", exchange: "NGM", type: "ETF"))
        #expect(matches.map(\.type).filter { $0 == "OPTION" }.count == 4)
    }

    @Test func searchFallsBackToTheShortName() throws {
        let matches = try YahooSearchDecoder.decode(try ProviderFixtures.response("yahoo", "search_BTC-USD.json"))
        #expect(matches.count == 6)
        #expect(matches.first == SymbolMatch(symbol: "BTC-USD", name: "Bitcoin USD", exchange: "CCC", type: "CRYPTOCURRENCY"))
        #expect(matches[2] == SymbolMatch(symbol: "CBBTC32994-USD", name: "Coinbase Wrapped BTC USD", exchange: "CCC", type: "CRYPTOCURRENCY"))
        #expect(matches.last?.type == "MUTUALFUND")
    }

    // MARK: session

    @Test func crumbIsTheBodyText() throws {
        #expect(try YahooErrorDecoder.crumb(try ProviderFixtures.response("yahoo", "getcrumb_response.txt")) == "haT3oykhHqZ")
    }

    @Test func aRateLimitTextServedAsACrumbIsNotACrumb() throws {
        for file in ["http429_too_many_requests_legacy.txt", "http429_edge_too_many_requests.txt"] {
            let error = try #require(throws: ProviderError.self) {
                try YahooErrorDecoder.crumb(try ProviderFixtures.response("yahoo", file, status: 200))
            }
            #expect(error.kind == .malformedResponse)
        }
        #expect(throws: ProviderError.self) { try YahooErrorDecoder.crumb(ProviderFixtures.htmlPage) }
        #expect(throws: ProviderError.self) { try YahooErrorDecoder.crumb(ProviderFixtures.json("")) }
    }

    @Test func cookiesAreTheNameValuePairsOfSetCookie() {
        let response = HTTPResponse(status: 404, headers: [
            HTTPHeader("Set-Cookie", "A3=d=AQABBA&S=AQAAA; Expires=Sun, 1 Feb 2026 00:00:00 GMT; Domain=.yahoo.com; Path=/; Secure; HttpOnly"),
            HTTPHeader("Content-Type", "text/html"),
            HTTPHeader("set-cookie", "A1=xyz; Path=/"),
        ])
        #expect(YahooErrorDecoder.cookie(response) == "A3=d=AQABBA&S=AQAAA; A1=xyz")
        #expect(YahooErrorDecoder.cookie(HTTPResponse(status: 200)) == nil)
    }
}
