import Foundation
import PriceWatchCore
import PriceWatchTestKit
import Testing

/// `pricewatch quote` without a configuration when Yahoo refuses (v7 `401 User is unable to
/// access this feature`, the chart failing too): the built-in yahoo provider's fallbacks quote
/// by symbol class, AAPL from nasdaq and BTC-USD from coingecko, and say so on standard error.
@Suite(.enabled(if: !FileManager.default.fileExists(atPath: "/etc/pricewatch/pricewatch.toml"),
                "a configuration at the default path is used instead of the built-in providers"))
struct ZeroConfigurationFailoverTests {
    @Test func aRefusedYahooQuoteComesFromTheKeylessFallbacks() async throws {
        let server = try LoopbackHTTPServer()
        let directory = try TemporaryDirectory()
        server.route("GET", "/") { _ in LoopbackResponse(status: 404, headers: [HTTPHeader("Set-Cookie", "A3=cookie; Path=/")]) }
        server.route("GET", "/v1/test/getcrumb") { _ in .text("haT3oykhHqZ") }
        server.route("GET", "/v7/finance/quote") { _ in
            LoopbackResponse(status: 401, headers: [HTTPHeader("Content-Type", "application/json")],
                             body: Array(YahooRefusalFallbackTests.refusal.utf8))
        }
        server.setFallback { request in
            request.path.hasPrefix("/v8/finance/chart/") ? .status(500, body: "upstream error") : .status(404)
        }
        let nasdaq = try Data(contentsOf: URL(fileURLWithPath: RepositoryFiles.path("Tests/Fixtures/providers/nasdaq/info_AAPL_market_open.json")))
        server.route("GET", "/api/quote/AAPL/info") { _ in
            LoopbackResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(nasdaq))
        }
        server.route("GET", "/api/v3/simple/price") { _ in
            .json(#"{"bitcoin":{"usd":67012.51,"usd_24h_change":-1.5,"last_updated_at":1711356300}}"#)
        }
        let result = try await CommandRunner.run(["quote", "--format", "json", "AAPL", "BTC-USD"], in: directory.path,
                                                 environment: ["PRICEWATCH_PROVIDER_BASE_URL": server.baseURL])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines.count == 2, "\(result.outputLines)")
        #expect(result.outputLines.first?.contains(#""symbol":"AAPL","provider":"nasdaq","price":266.782"#) == true, "\(result.outputLines)")
        #expect(result.outputLines.last?.contains(#""symbol":"BTC-USD","provider":"coingecko","price":67012.51"#) == true,
                "\(result.outputLines)")
        #expect(result.errorLines.contains { $0.hasPrefix("AAPL: yahoo could not quote it (") && $0.hasSuffix("quoted by fallback 'nasdaq'") },
                "\(result.errorLines)")
        #expect(server.requests(path: "/api/quote/BTC-USD/info").isEmpty, "nasdaq is not asked for a crypto pair")
        #expect(server.requests(path: "/api/v3/simple/price").map { $0.queryValue("ids") } == ["bitcoin"])
    }
}
