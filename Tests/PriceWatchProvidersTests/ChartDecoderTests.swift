import PriceWatchCore
import PriceWatchCurl
import PriceWatchProviders
import PriceWatchTestKit
import Testing

/// Chart payloads to candles: the recorded Yahoo chart answers, and the Binance klines and
/// Coinbase candles samples reconstructed from the services' documentation. Null, partial,
/// malformed or inconsistent candles never become prices.
@Suite struct ChartDecoderTests {
    static let binanceFixtures: Set<String> = ["klines_BNBBTC_docs_RECONSTRUCTED.json"]
    static let coinbaseFixtures: Set<String> = ["exchange_candles_BTC-USD_docs_RECONSTRUCTED.json"]

    static func d(_ text: String) -> ExactDecimal { ProviderFixtures.decimal(text) }
    // 2024-10-02T00:00:00Z and 2024-10-03T00:00:00Z: the day the AAPL chart was requested for.
    static let day = (from: Timestamp(seconds: 1_727_827_200), to: Timestamp(seconds: 1_727_913_600))
    static let everything = (from: Timestamp(seconds: 1), to: Timestamp(seconds: 4_000_000_000))

    static func json(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(text.utf8))
    }

    // MARK: Yahoo

    @Test func yahooOneMinuteSessionDropsTheNullBarAndTheTrailingPoint() throws {
        let chart = try YahooChartCandleDecoder.decode(try ProviderFixtures.response("yahoo", "chart_AAPL_1m_2024-10-02.json"),
                                                       symbol: "AAPL", interval: .oneMinute, from: Self.day.from, to: Self.day.to)
        // 391 points: one with a null close, and the current price stamped the next day.
        #expect(chart.candles.count == 389)
        #expect(chart.currency == "USD")
        #expect(chart.previousClose == Self.d("226.21"))
        #expect(chart.exchangeTimeZone == "America/New_York")
        let first = try #require(chart.candles.first)
        #expect(first.time == Timestamp(seconds: 1_727_875_800))
        #expect(first.close == Self.d("225.7"))
        #expect(chart.candles.allSatisfy { $0.interval == .oneMinute && CandleBuilder.isConsistent($0) })
        #expect(chart.candles.allSatisfy { $0.close.significantFractionDigits <= 2 })
        // Strictly increasing starts.
        #expect(zip(chart.candles, chart.candles.dropFirst()).allSatisfy { $0.time < $1.time })
        // The bar with the null close (2024-10-02T15:15Z) is absent, not invented.
        #expect(!chart.candles.contains { $0.time == Timestamp(seconds: 1_727_882_100) })
    }

    @Test func yahooDailyCandles() throws {
        let chart = try YahooChartCandleDecoder.decode(try ProviderFixtures.response("yahoo", "chart_AAPL_1d_2022-02-22.json"),
                                                       symbol: "AAPL", interval: .oneDay, from: Self.everything.from,
                                                       to: Self.everything.to)
        #expect(chart.candles == [Candle(time: Timestamp(seconds: 1_645_540_200), interval: .oneDay, open: Self.d("164.98"),
                                         high: Self.d("166.69"), low: Self.d("162.15"), close: Self.d("164.32"),
                                         volume: Self.d("91162800"))])
    }

    @Test func yahooBitcoinDailyCandles() throws {
        let chart = try YahooChartCandleDecoder.decode(try ProviderFixtures.response("yahoo", "chart_BTC-USD_1d.json"),
                                                       symbol: "BTC-USD", interval: .oneDay, from: Self.everything.from,
                                                       to: Self.everything.to)
        #expect(!chart.candles.isEmpty)
        #expect(chart.candles.allSatisfy(CandleBuilder.isConsistent))
    }

    @Test func yahooRangeWithoutTradesIsAnEmptyChart() throws {
        let chart = try YahooChartCandleDecoder.decode(try ProviderFixtures.response("yahoo", "chart_VXAPL_index_no_data_in_range.json"),
                                                       symbol: "^VXAPL", interval: .oneDay, from: Self.everything.from,
                                                       to: Self.everything.to)
        #expect(chart.candles.isEmpty)
    }

    @Test func yahooUnknownSymbol() throws {
        let response = try ProviderFixtures.response("yahoo", "chart_SI_not_found_http404.json", status: 404)
        do {
            _ = try YahooChartCandleDecoder.decode(response, symbol: "SI", interval: .oneDay, from: Self.everything.from,
                                                   to: Self.everything.to)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .unknownSymbol)
        }
    }

    @Test func yahooPartialAndMalformedPointsAreDropped() throws {
        let body = """
            {"chart":{"result":[{"meta":{"currency":"GBp","priceHint":2},
            "timestamp":[1000,1060,1120,1180,"1240",1300,1360],
            "indicators":{"quote":[{"open":[100,100,null,100,100,"101",100],
                                    "high":[110,110,110,110,110,110,90],
                                    "low":[90,90,90,90,90,90,95],
                                    "close":[105,null,105,-1,105,105,92],
                                    "volume":[1,2,3,4,5,6,7]}]}}],"error":null}}
            """
        let chart = try YahooChartCandleDecoder.decode(Self.json(body), symbol: "VOD.L", interval: .oneMinute,
                                                       from: Self.everything.from, to: Self.everything.to)
        // Only the first point is whole: null close, null open, negative close, a string time,
        // a string open and a high below the low are all dropped. Pence become pounds.
        #expect(chart.candles == [Candle(time: Timestamp(seconds: 1000), interval: .oneMinute, open: Self.d("1"),
                                         high: Self.d("1.1"), low: Self.d("0.9"), close: Self.d("1.05"), volume: Self.d("1"))])
        #expect(chart.currency == "GBP")
    }

    @Test func yahooShortArraysNeverInventPrices() throws {
        let body = #"{"chart":{"result":[{"meta":{},"timestamp":[1000,1060],"indicators":{"quote":[{"open":[1],"high":[1],"low":[1],"close":[1]}]}}]}}"#
        let chart = try YahooChartCandleDecoder.decode(Self.json(body), symbol: "X", interval: .oneMinute,
                                                       from: Self.everything.from, to: Self.everything.to)
        #expect(chart.candles.map(\.time) == [Timestamp(seconds: 1000)])
    }

    // MARK: Binance

    @Test func binanceKlinesFromTheDocumentation() throws {
        let candles = try BinanceKlinesDecoder.decode(try ProviderFixtures.response("binance", "klines_BNBBTC_docs_RECONSTRUCTED.json"),
                                                      symbol: "BNBBTC", interval: .oneDay, from: Self.everything.from,
                                                      to: Self.everything.to)
        #expect(candles == [Candle(time: Timestamp(milliseconds: 1_499_040_000_000), interval: .oneDay, open: Self.d("0.0163479"),
                                   high: Self.d("0.8"), low: Self.d("0.015758"), close: Self.d("0.015771"),
                                   volume: Self.d("148976.11427815"))])
    }

    @Test func binancePartialNullAndUnknownRowsAreDropped() throws {
        let body = """
            [[1000, "1.0", "2.0", "0.5", "1.5", "10"],
             [2000, "1.0", null, "0.5", "1.5", "10"],
             [3000, "1.0", "2.0", "0.5"],
             [4000, 1.0, 2.0, 0.5, 1.5, "10"],
             [5000, "1.0", "2.0", "0.5", "0", "10"],
             {"openTime": 6000},
             ["7000", "1.0", "2.0", "0.5", "1.5", "10"],
             [8000, "abc", "2.0", "0.5", "1.5", "10"]]
            """
        let candles = try BinanceKlinesDecoder.decode(Self.json(body), symbol: "BTCUSDT", interval: .oneMinute,
                                                      from: Self.everything.from.subtracting(RuleDuration(seconds: 1)!),
                                                      to: Self.everything.to)
        #expect(candles.map(\.time) == [Timestamp(milliseconds: 1000)])
    }

    @Test func binanceUnknownSymbolAndErrors() throws {
        let rejected = try ProviderFixtures.response("binance", "error_invalid_symbol_-1121_docs.json", status: 400)
        do {
            _ = try BinanceKlinesDecoder.decode(rejected, symbol: "NOPE", interval: .oneMinute, from: Self.everything.from, to: Self.everything.to)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .unknownSymbol)
        }
        do {
            _ = try BinanceKlinesDecoder.decode(Self.json(#"{"symbol":"BTCUSDT"}"#), symbol: "BTCUSDT", interval: .oneMinute,
                                                from: Self.everything.from, to: Self.everything.to)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .malformedResponse)
        }
    }

    // MARK: Coinbase

    @Test func coinbaseCandlesFromTheDocumentation() throws {
        let candles = try CoinbaseCandlesDecoder.decode(
            try ProviderFixtures.response("coinbase", "exchange_candles_BTC-USD_docs_RECONSTRUCTED.json"),
            symbol: "BTC-USD", interval: .oneMinute, from: Self.everything.from, to: Self.everything.to)
        // [time, low, high, open, close, volume]
        #expect(candles == [Candle(time: Timestamp(seconds: 1_415_398_768), interval: .oneMinute, open: Self.d("0.35"),
                                   high: Self.d("4.2"), low: Self.d("0.32"), close: Self.d("4.2"), volume: Self.d("12.3"))])
    }

    @Test func coinbaseNewestFirstIsSortedAndBadRowsDropped() throws {
        let body = "[[180, 1, 3, 2, 2.5, 1], [120, 1, 3, 2, null, 1], [60, 1, 3, 2, 2, 1], [0, 5, 3, 4, 4, 1], [30]]"
        let candles = try CoinbaseCandlesDecoder.decode(Self.json(body), symbol: "BTC-USD", interval: .oneMinute,
                                                        from: Self.everything.from, to: Self.everything.to)
        #expect(candles.map(\.time) == [Timestamp(seconds: 60), Timestamp(seconds: 180)])
        do {
            _ = try CoinbaseCandlesDecoder.decode(Self.json(#"{"message":"NotFound"}"#, status: 404), symbol: "NOPE-USD",
                                                  interval: .oneMinute, from: Self.everything.from, to: Self.everything.to)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .unknownSymbol)
        }
    }

    // MARK: Through the transport

    @Test func providersAskTheirChartEndpointsOverHTTP() async throws {
        let server = try LoopbackHTTPServer()
        server.route("GET", "/v8/finance/chart/AAPL", sequence: [
            LoopbackResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")],
                             body: try ProviderFixtures.bytes("yahoo", "chart_AAPL_1m_2024-10-02.json")),
        ])
        server.route("GET", "/api/v3/klines", sequence: [
            LoopbackResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")],
                             body: try ProviderFixtures.bytes("binance", "klines_BNBBTC_docs_RECONSTRUCTED.json")),
        ])
        server.route("GET", "/products/BTC-USD/candles", sequence: [
            LoopbackResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")],
                             body: try ProviderFixtures.bytes("coinbase", "exchange_candles_BTC-USD_docs_RECONSTRUCTED.json")),
        ])
        let yahoo = YahooProvider(name: "yahoo", transport: CurlHTTPTransport(), baseURL: server.baseURL)
        let chart = try await yahoo.chart(symbol: "AAPL", interval: .oneMinute, from: Self.day.from, to: Self.day.to)
        #expect(chart.candles.count == 389)
        let yahooRequest = try #require(server.requests(path: "/v8/finance/chart/AAPL").first)
        #expect(yahooRequest.queryValue("period1") == "1727827200")
        #expect(yahooRequest.queryValue("period2") == "1727913600")
        #expect(yahooRequest.queryValue("interval") == "1m")

        let binance = BinanceProvider(name: "binance", transport: CurlHTTPTransport(), baseURL: server.baseURL)
        let klines = try await binance.chart(symbol: "bnbbtc", interval: .oneDay, from: Timestamp(milliseconds: 1_499_000_000_000),
                                             to: Timestamp(milliseconds: 1_500_000_000_000))
        #expect(klines.candles.count == 1)
        let binanceRequest = try #require(server.requests(path: "/api/v3/klines").first)
        #expect(binanceRequest.queryValue("symbol") == "BNBBTC")
        #expect(binanceRequest.queryValue("interval") == "1d")
        #expect(binanceRequest.queryValue("startTime") == "1499000000000")

        let coinbase = CoinbaseProvider(name: "coinbase", transport: CurlHTTPTransport(), baseURL: server.baseURL)
        let candles = try await coinbase.chart(symbol: "BTC-USD", interval: .oneMinute, from: Timestamp(seconds: 1_415_398_700),
                                               to: Timestamp(seconds: 1_415_398_800))
        #expect(candles.candles.count == 1)
        let coinbaseRequest = try #require(server.requests(path: "/products/BTC-USD/candles").first)
        #expect(coinbaseRequest.queryValue("granularity") == "60")
        #expect(coinbaseRequest.queryValue("start") == "2014-11-07T22:18:20Z")
    }
}
