import Foundation
import PriceWatchCore
import PriceWatchTestKit
import Synchronization
import Testing

/// Issue 28, "Quotes that keep coming": Yahoo's loopback stand-in refuses v7 quotes with 2025's
/// `401 User is unable to access this feature` and its chart endpoint fails too; the daemon
/// fails over per symbol class (AAPL to the Nasdaq stand-in, BTC-USD to the CoinGecko one),
/// keeps alerting with no lost alert, says once per change which source serves which symbols,
/// and says once that AAPL comes from Yahoo again when its chart answers.
@Suite struct QuoteFailoverTests {
    /// Nasdaq's recorded market-open answer with its trade time moved to `date` (New York time).
    static func nasdaqAnswer(at date: Date) throws -> [UInt8] {
        let recorded = try String(contentsOfFile: RepositoryFiles.path("Tests/Fixtures/providers/nasdaq/info_AAPL_market_open.json"),
                                  encoding: .utf8)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "America/New_York")
        formatter.dateFormat = "MMM d, yyyy h:mm a"
        return Array(recorded.replacingOccurrences(of: "Nov 19, 2019 10:33 AM", with: formatter.string(from: date)).utf8)
    }

    @Test func yahooRefusedFailsOverByClassAndComesBackWithOneLineEach() async throws {
        let server = try LoopbackHTTPServer()
        let chartAnswers = Mutex(false)
        server.route("GET", "/") { _ in
            LoopbackResponse(status: 404, headers: [HTTPHeader("Set-Cookie", "A3=d=AQABBA&S=AQAAA; Path=/")], body: Array("<html></html>".utf8))
        }
        server.route("GET", "/v1/test/getcrumb") { _ in .text("haT3oykhHqZ") }
        server.route("GET", "/v7/finance/quote") { _ in
            LoopbackResponse(status: 401, headers: [HTTPHeader("Content-Type", "application/json")],
                             body: Array(YahooRefusalFallbackTests.refusal.utf8))
        }
        let chart = try RecordedYahooChart.aapl(endingAt: Int(Date().timeIntervalSince1970))
        server.route("GET", "/v8/finance/chart/AAPL") { _ in
            chartAnswers.withLock { $0 }
                ? LoopbackResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(chart))
                : .status(500, body: "upstream error")
        }
        server.route("GET", "/v8/finance/chart/BTC-USD") { _ in .status(500, body: "upstream error") }
        let nasdaq = try Self.nasdaqAnswer(at: Date().addingTimeInterval(-120))
        server.route("GET", "/nasdaq/api/quote/AAPL/info") { _ in
            LoopbackResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: nasdaq)
        }
        server.route("GET", "/gecko/api/v3/simple/price") { _ in
            .json(#"{"bitcoin":{"usd":67012.51,"usd_24h_change":-1.5,"last_updated_at":\#(Int(Date().timeIntervalSince1970) - 60)}}"#)
        }
        let directory = try TemporaryDirectory()
        try directory.write("rules.d/rules.toml", """
            [[rule]]
            id = "aapl-above-200"
            symbol = "AAPL"
            above = 200

            [[rule]]
            id = "btc-above-1000"
            symbol = "BTC-USD"
            above = 1000
            """)
        try directory.write("pricewatch.toml", """
            state = "state/pricewatch.db"
            interval = "5s"
            provider = "yahoo"
            [providers.yahoo]
            type = "yahoo"
            base_url = "\(server.baseURL)"
            session_url = "\(server.baseURL)/"
            fallback = ["nasdaq", "coingecko"]
            [providers.nasdaq]
            type = "nasdaq"
            base_url = "\(server.baseURL)/nasdaq"
            [providers.coingecko]
            type = "coingecko"
            base_url = "\(server.baseURL)/gecko"
            [sinks.console]
            type = "stdout"
            """)
        let daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path)
        // Each poll first spends its retries on Yahoo (1 s, then 2 s) before the fallbacks serve it.
        try await daemon.waitForOutput("both alerts through the fallbacks") { lines in
            lines.contains { $0.contains("aapl-above-200") } && lines.contains { $0.contains("btc-above-1000") }
        }
        #expect(server.requests(path: "/gecko/api/v3/simple/price").allSatisfy { $0.queryValue("ids") == "bitcoin" },
                "coingecko is asked for the crypto pair only")
        #expect(!server.requests(path: "/nasdaq/api/quote/BTC-USD/info").contains { _ in true }, "nasdaq is never asked for BTC-USD")
        // More polls through the fallbacks: no new line, no new alert.
        let asked = server.requests(path: "/nasdaq/api/quote/AAPL/info").count
        try await waitUntil("two more polls through nasdaq") { server.requests(path: "/nasdaq/api/quote/AAPL/info").count >= asked + 2 }
        let toNasdaq = daemon.errorLines.filter { $0.contains("quotes of AAPL for provider 'yahoo' now come from fallback 'nasdaq'") }
        let toGecko = daemon.errorLines.filter { $0.contains("quotes of BTC-USD for provider 'yahoo' now come from fallback 'coingecko'") }
        #expect(toNasdaq.count == 1 && toGecko.count == 1, "\(daemon.errorLines.joined(separator: "\n"))")

        // Yahoo's chart answers again: AAPL comes back, once, and its crossing is not alerted again.
        chartAnswers.withLock { $0 = true }
        try await waitUntil("the line saying AAPL comes from yahoo again") {
            daemon.errorLines.contains { $0.contains("quotes of AAPL for provider 'yahoo' come from 'yahoo' again (were from 'nasdaq')") }
        }
        let charted = server.requests(path: "/v8/finance/chart/AAPL").count
        try await waitUntil("two more polls through the chart") { server.requests(path: "/v8/finance/chart/AAPL").count >= charted + 2 }
        #expect(daemon.errorLines.filter { $0.contains("come from 'yahoo' again") }.count == 1, "\(daemon.errorLines)")
        #expect(daemon.outputLines.filter { $0.contains("aapl-above-200") }.count == 1, "\(daemon.outputLines)")
        #expect(daemon.outputLines.filter { $0.contains("btc-above-1000") }.count == 1, "\(daemon.outputLines)")
        #expect(try await daemon.stop() == 0)
    }
}
