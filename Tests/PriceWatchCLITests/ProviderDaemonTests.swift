import Foundation
import PriceWatchCore
import PriceWatchTestKit
import Testing

/// `pricewatch run` polling real provider types (yahoo with its session and crumb, binance)
/// through libcurl against a loopback server: the daemon's wiring of the HTTP transport.
@Suite struct ProviderDaemonTests {
    @Test func theDaemonAlertsOnQuotesFetchedOverHTTP() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("GET", "/") { _ in LoopbackResponse(status: 404, headers: [HTTPHeader("Set-Cookie", "A3=cookie; Path=/")]) }
        server.route("GET", "/v1/test/getcrumb") { request in
            request.header("Cookie") == "A3=cookie" ? .text("haT3oykhHqZ") : .status(401)
        }
        let fixtures = RepositoryFiles.path("Tests/Fixtures/providers")
        let quote = try Data(contentsOf: URL(fileURLWithPath: fixtures + "/yahoo/quote_AAPL.json"))
        server.route("GET", "/v7/finance/quote") { request in
            request.queryValue("crumb") == "haT3oykhHqZ" ? LoopbackResponse(body: Array(quote)) : .status(401)
        }
        let tickers = try Data(contentsOf: URL(fileURLWithPath: fixtures + "/binance/ticker_24hr_MINI_list_docs.json"))
        server.route("GET", "/api/v3/ticker/24hr") { _ in LoopbackResponse(body: Array(tickers)) }

        let directory = try TemporaryDirectory()
        try directory.write("pricewatch.toml", """
            state = "state/pricewatch.db"
            interval = "1s"
            provider = "yahoo"
            [providers.yahoo]
            type = "yahoo"
            base_url = "\(server.baseURL)"
            [providers.binance]
            type = "binance"
            base_url = "\(server.baseURL)"
            [sinks.out]
            type = "stdout"
            format = "json"
            """)
        try directory.write("rules.d/a.toml", """
            [[rule]]
            id = "aapl-200"
            symbol = "AAPL"
            above = 200
            [[rule]]
            id = "bnb-1"
            symbol = "BNBBTC"
            provider = "binance"
            above = 1
            """)
        let daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path)
        try await daemon.waitForOutput("the alerts of aapl-200 and bnb-1") { lines in
            lines.contains { $0.contains(#""rule":"aapl-200""#) } && lines.contains { $0.contains(#""rule":"bnb-1""#) }
        }
        #expect(try await daemon.stop() == 0)
        let alerts = daemon.outputLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let apple = try #require(alerts.first { $0["rule"] as? String == "aapl-200" })
        #expect(apple["time"] as? String == "2025-02-14T21:00:00Z")
        #expect(apple["currency"] as? String == "USD")
        #expect(daemon.outputLines.contains { $0.contains(#""price":244.6"#) })
        #expect(daemon.outputLines.contains { $0.contains(#""price":4.000002"#) })
        // Later polls repeat the same quotes: no second alert.
        #expect(alerts.count == 2)
        #expect(server.requests(path: "/v1/test/getcrumb").count == 1)
    }
}
