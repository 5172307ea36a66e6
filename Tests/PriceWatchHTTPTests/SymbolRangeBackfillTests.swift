import Foundation
import PriceWatchCore
import PriceWatchCurl
import PriceWatchTestKit
import Testing

/// Issue 26, item 2: a range the daemon did not record is charted from the chart endpoint of
/// the provider that polls (a loopback stand-in for Yahoo serving the recorded AAPL chart of
/// 2024-10-02, its times moved to two days ago so they fall in the range), read once for
/// every viewer within the minute, and the page says so; the 52-week range comes from the 1Y
/// read, once a minute too, and says it covers only the days the provider gave.
@Suite struct SymbolRangeBackfillTests {
    @Test func aRangeIsBackfilledThroughThePollingProviderOnceAMinute() async throws {
        let server = try LoopbackHTTPServer()
        let chart = try RecordedYahooChart.aapl(startingAt: Int(Date().timeIntervalSince1970) - 2 * 86_400)
        let chartPath = "/v8/finance/chart/AAPL"
        server.route("GET", chartPath) { _ in
            LoopbackResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(chart))
        }
        let directory = try TemporaryDirectory()
        let port = try DashboardDaemon.freePort()
        try directory.write("rules.d/aapl.toml", "[[rule]]\nid = \"aapl-above-226.5\"\nsymbol = \"AAPL\"\nabove = 226.5\n")
        // Polling once an hour: its quote requests (which the stand-in does not serve) stay out
        // of the way; the page's history is what is tested.
        try directory.write("pricewatch.toml", """
            state = "state/pricewatch.db"
            interval = "1h"
            [providers.yahoo]
            type = "yahoo"
            base_url = "\(server.baseURL)"
            [sinks.console]
            type = "stdout"
            [http]
            listen = "127.0.0.1:\(port)"
            """)
        let daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path)
        let transport = CurlHTTPTransport()
        func get(_ path: String) async -> HTTPResponse? {
            try? await transport.send(HTTPRequest(method: .get, url: "http://127.0.0.1:\(port)\(path)", timeout: .seconds(20)))
        }
        let page = try await waitFor("the symbol page of AAPL; daemon: \(daemon.errorLines.suffix(5))") { () async throws -> String? in
            if !daemon.isRunning { throw DashboardDaemon.DaemonExited(lines: daemon.errorLines.suffix(10)) }
            guard let answer = await get("/symbol/AAPL?range=5d"), answer.status == 200 else { return nil }
            return String(decoding: answer.body, as: UTF8.self)
        }
        #expect(page.contains("<svg class=\"chart chart-light\""), "a chart: \(page.suffix(1500))")
        // The provider's candles (before what the daemon stored from its first poll, when that
        // was stored before the page was read).
        #expect(page.contains("prices from backfilled from provider &#39;yahoo&#39;")
                || page.contains("prices from stored history, backfilled from provider &#39;yahoo&#39; before it"),
                "where the prices came from")
        #expect(page.range(of: "AAPL over 5 days, 39[01] prices", options: .regularExpression) != nil,
                "the summary names the range and counts the recorded minutes (and the stored poll)")
        // Polling asks the same endpoint for quotes now and then; the page's reads are those
        // with the range's start (`period1`): the 5D chart's five-minute candles and the 1Y
        // daily ones of the 52-week range; a second view does not ask again.
        let reads = { (interval: String) in
            server.requests(path: chartPath).filter { $0.query.contains("period1=") && $0.query.contains("interval=\(interval)&") }.count
        }
        #expect(reads("5m") == 1, "the chart's read: \(server.requests(path: chartPath).map(\.query))")
        #expect(reads("1d") == 1, "the 52-week range's read: \(server.requests(path: chartPath).map(\.query))")
        // The stand-in serves two days ago whatever is asked: less than 52 weeks, and said.
        #expect(page.range(of: "<dt>52-week range</dt><dd>[0-9.]+ – [0-9.]+ \\(from [0-9]+ [A-Z][a-z]{2} [0-9]{4}\\)</dd>",
                           options: .regularExpression) != nil, "\(page.suffix(3000))")
        let again = try #require(await get("/symbol/AAPL?range=5d"))
        #expect(again.status == 200)
        #expect(reads("5m") == 1 && reads("1d") == 1, "one read of each for both views")
        #expect(try await daemon.stop() == 0)
        // The backfilled candles were kept: with the provider gone, `history` still has them.
        server.stop()
        let history = try await CommandRunner.run(["history", "AAPL", "--range", "5d", "--format", "json", "--config", "pricewatch.toml"],
                                                  in: directory.path)
        // The recorded session's 390 minutes as the 5D range's five-minute candles: 78 of them.
        #expect(history.outputLines.count >= 78, "stored candles: \(history.outputLines.count); \(history.standardError)")
    }
}
