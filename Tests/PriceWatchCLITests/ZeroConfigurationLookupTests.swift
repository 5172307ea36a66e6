import Foundation
import PriceWatchCore
import PriceWatchTestKit
import Testing

/// `pricewatch quote` and `pricewatch search` without any configuration file: the built-in
/// keyless providers (yahoo by default), pointed at a loopback server serving recorded
/// payloads through `$PRICEWATCH_PROVIDER_BASE_URL`.
@Suite(.enabled(if: !FileManager.default.fileExists(atPath: "/etc/pricewatch/pricewatch.toml"),
                "a configuration at the default path is used instead of the built-in providers"))
struct ZeroConfigurationLookupTests {
    let server: LoopbackHTTPServer
    let directory: TemporaryDirectory

    init() throws {
        server = try LoopbackHTTPServer()
        directory = try TemporaryDirectory()
        server.route("GET", "/") { _ in LoopbackResponse(status: 404, headers: [HTTPHeader("Set-Cookie", "A3=cookie; Path=/")]) }
        server.route("GET", "/v1/test/getcrumb") { request in
            request.header("Cookie") == "A3=cookie" ? .text("haT3oykhHqZ") : .status(401)
        }
        let multi = try QuoteSearchCommandTests.fixture("yahoo", "quote_AAPL_BABA_multi.json")
        server.route("GET", "/v7/finance/quote") { request in
            request.queryValue("crumb") == "haT3oykhHqZ" ? multi : .status(401)
        }
    }

    /// Runs in an empty directory with no `--config` and no `$PRICEWATCH_CONFIG`.
    func run(_ arguments: [String]) async throws -> CommandRunner.Result {
        try await CommandRunner.run(arguments, in: directory.path,
                                    environment: ["PRICEWATCH_PROVIDER_BASE_URL": server.baseURL])
    }

    @Test func quoteWorksWithoutAConfigurationFileOnYahoo() async throws {
        let result = try await run(["quote", "--format", "json", "AAPL"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines == [
            #"{"symbol":"AAPL","provider":"yahoo","price":244.6,"currency":"USD","time":"2025-02-14T21:00:00Z","previous_close":241.53,"exchange":"NMS","market_state":"CLOSED"}"#,
        ])
        #expect(server.requests(path: "/v7/finance/quote").map { $0.queryValue("symbols") } == ["AAPL"])
    }

    @Test func searchWorksWithoutAConfigurationFile() async throws {
        server.route("GET", "/v1/finance/search", sequence: [try QuoteSearchCommandTests.fixture("yahoo", "search_BTC-USD.json")])
        let result = try await run(["search", "bitcoin"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines.dropFirst().first?.hasPrefix("BTC-USD ") == true, "\(result.outputLines)")
        #expect(server.requests(path: "/v1/finance/search").map { $0.queryValue("q") } == ["bitcoin"])
    }

    @Test func anotherKeylessProviderIsOneOptionAway() async throws {
        server.route("GET", "/v2/prices/BTC-USD/spot", sequence: [try QuoteSearchCommandTests.fixture("coinbase", "v2_prices_spot_BTC-USD.json")])
        let result = try await run(["quote", "--provider", "coinbase", "--format", "json", "BTC-USD"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines.first?.contains(#""provider":"coinbase""#) == true, "\(result.outputLines)")
        let unknown = try await run(["quote", "--provider", "nope", "AAPL"])
        #expect(unknown.status == 1)
        #expect(unknown.errorLines.first?.contains("no provider 'nope' (providers: yahoo, coinbase, kraken, binance, coingecko, nasdaq)") == true,
                "\(unknown.errorLines)")
    }

    /// A file named explicitly but missing is an error, never a silent fall-back.
    @Test func aMissingNamedConfigurationIsStillAnError() async throws {
        let result = try await run(["quote", "--config", "missing.toml", "AAPL"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("missing.toml"), "\(result.standardError)")
        #expect(server.requests(path: "/v7/finance/quote").isEmpty)
    }
}
