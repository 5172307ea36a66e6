import Foundation
import PriceWatchCore
import PriceWatchTestKit
import Testing

/// Issue 28, "Quotes that keep coming", first half: when Yahoo's v7 quote answers 2025's
/// `401 User is unable to access this feature` (after the one session renewal it earns), the
/// daemon keeps polling through the v8 chart endpoint, and its rules fire from those prices,
/// once per crossing. A loopback stand-in serves the session, the refusal and the recorded AAPL
/// chart of 2024-10-02 (its times moved to now).
@Suite struct YahooRefusalFallbackTests {
    static let refusal = #"{"finance":{"result":null,"error":{"code":"Unauthorized","description":"User is unable to access this feature - https://bit.ly/yahoo-finance-api-feedback"}}}"#

    @Test func aRefusedQuoteEndpointStillAlertsThroughTheChart() async throws {
        let server = try LoopbackHTTPServer()
        server.route("GET", "/") { _ in
            LoopbackResponse(status: 404, headers: [HTTPHeader("Set-Cookie", "A3=d=AQABBA&S=AQAAA; Path=/")], body: Array("<html></html>".utf8))
        }
        server.route("GET", "/v1/test/getcrumb") { _ in .text("haT3oykhHqZ") }
        server.route("GET", "/v7/finance/quote") { _ in
            LoopbackResponse(status: 401, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(Self.refusal.utf8))
        }
        let chart = try RecordedYahooChart.aapl(endingAt: Int(Date().timeIntervalSince1970))
        server.route("GET", "/v8/finance/chart/AAPL") { _ in
            LoopbackResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(chart))
        }
        let directory = try TemporaryDirectory()
        try directory.write("rules.d/aapl.toml", "[[rule]]\nid = \"aapl-above-200\"\nsymbol = \"AAPL\"\nabove = 200\n")
        try directory.write("pricewatch.toml", """
            state = "state/pricewatch.db"
            interval = "1s"
            [providers.yahoo]
            type = "yahoo"
            base_url = "\(server.baseURL)"
            session_url = "\(server.baseURL)/"
            [sinks.console]
            type = "stdout"
            """)
        let daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path)
        try await daemon.waitForOutput("the alert of aapl-above-200") { lines in lines.contains { $0.contains("aapl-above-200") } }
        // More polls through the chart: the same crossing never fires again.
        let polled = server.requests(path: "/v8/finance/chart/AAPL").count
        try await waitUntil("two more polls through the chart") { server.requests(path: "/v8/finance/chart/AAPL").count >= polled + 2 }
        #expect(daemon.outputLines.filter { $0.contains("aapl-above-200") }.count == 1, "\(daemon.outputLines)")
        #expect(server.requests(path: "/v7/finance/quote").count >= 2, "v7 was asked (and refused) first")
        #expect(try await daemon.stop() == 0)
    }
}
