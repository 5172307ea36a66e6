import Foundation
import PriceWatchCore
import PriceWatchTestKit
import Testing

/// `pricewatch quote` and `pricewatch search` end to end: the built binary, a temporary
/// configuration whose providers' `base_url` is a loopback server serving recorded payloads.
@Suite struct QuoteSearchCommandTests {
    let server: LoopbackHTTPServer
    let directory: TemporaryDirectory

    init() throws {
        server = try LoopbackHTTPServer()
        directory = try TemporaryDirectory()
        server.route("GET", "/") { _ in LoopbackResponse(status: 404, headers: [HTTPHeader("Set-Cookie", "A3=cookie; Path=/")]) }
        server.route("GET", "/v1/test/getcrumb") { request in
            request.header("Cookie") == "A3=cookie" ? .text("haT3oykhHqZ") : .status(401)
        }
        let multi = try Self.fixture("yahoo", "quote_AAPL_BABA_multi.json")
        server.route("GET", "/v7/finance/quote") { request in
            request.queryValue("crumb") == "haT3oykhHqZ" ? multi : .status(401)
        }
        // No rules: quote and search need providers only (the "no rules" warning is not printed).
        try FileManager.default.createDirectory(atPath: directory.file("rules.d"), withIntermediateDirectories: true)
    }

    static func fixture(_ service: String, _ file: String, status: Int = 200) throws -> LoopbackResponse {
        let data = try Data(contentsOf: URL(fileURLWithPath: RepositoryFiles.path("Tests/Fixtures/providers/\(service)/\(file)")))
        return LoopbackResponse(status: status, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(data))
    }

    /// A main file with the given provider tables (and a stdout sink).
    func configure(_ providers: String, main: String = "") throws -> String {
        try directory.write("pricewatch.toml", (main.isEmpty ? "" : main + "\n") + providers + "\n[sinks.console]\ntype = \"stdout\"\n")
        return directory.file("pricewatch.toml")
    }

    func run(_ arguments: [String]) async throws -> CommandRunner.Result {
        try await CommandRunner.run(arguments, in: directory.path)
    }

    var yahoo: String { "[providers.yahoo]\ntype = \"yahoo\"\nbase_url = \"\(server.baseURL)\"\n" }

    // MARK: quote

    @Test func quoteJSONLinesExactlyAsTheContractSays() async throws {
        let config = try configure(yahoo)
        let result = try await run(["quote", "--config", config, "--format", "json", "AAPL", "BABA", "NOPE"])
        #expect(result.status == 1)
        #expect(result.outputLines == [
            #"{"symbol":"AAPL","provider":"yahoo","price":244.6,"currency":"USD","time":"2025-02-14T21:00:00Z","previous_close":241.53,"exchange":"NMS","market_state":"CLOSED"}"#,
            #"{"symbol":"BABA","provider":"yahoo","price":124.73,"currency":"USD","time":"2025-02-14T21:00:02Z","previous_close":119.54,"exchange":"NYQ","market_state":"CLOSED"}"#,
        ])
        #expect(result.errorLines == ["NOPE: error: yahoo does not know the symbol NOPE"])
    }

    @Test func quoteTextIsAnAlignedTable() async throws {
        let config = try configure(yahoo)
        let result = try await run(["quote", "--config", config, "AAPL", "BABA", "AAPL"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty)
        #expect(result.outputLines == [
            "SYMBOL   PRICE  PREV_CLOSE  CHANGE  CURRENCY  TIME                  EXCHANGE  STATE",
            "AAPL    244.60      241.53  +1.27%  USD       2025-02-14T21:00:00Z  NMS       CLOSED",
            "BABA    124.73      119.54  +4.34%  USD       2025-02-14T21:00:02Z  NYQ       CLOSED",
        ])
        #expect(server.requests(path: "/v7/finance/quote").map { $0.queryValue("symbols") } == ["AAPL,BABA"])
    }

    @Test func fieldsTheProviderDoesNotGiveAreNull() async throws {
        server.route("GET", "/api/v3/ticker/24hr", sequence: [try Self.fixture("binance", "ticker_24hr_MINI_list_docs.json")])
        let config = try configure(yahoo + "\n[providers.binance]\ntype = \"binance\"\nbase_url = \"\(server.baseURL)\"\n",
                                   main: "provider = \"yahoo\"")
        let result = try await run(["quote", "--config", config, "--provider", "binance", "--format", "json", "BNBBTC"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines == [
            #"{"symbol":"BNBBTC","provider":"binance","price":4.000002,"currency":null,"time":"2017-07-12T14:31:39.040Z","previous_close":null,"exchange":null,"market_state":null}"#,
        ])
    }

    @Test func theDefaultProviderIsTheMainFilesOrTheOnlyOne() async throws {
        server.route("GET", "/v2/prices/BTC-USD/spot", sequence: [try Self.fixture("coinbase", "v2_prices_spot_BTC-USD.json")])
        let coinbase = "[providers.coinbase]\ntype = \"coinbase\"\nbase_url = \"\(server.baseURL)\"\n"
        // Two providers, the main file names one.
        var config = try configure(yahoo + "\n" + coinbase, main: "provider = \"coinbase\"")
        var result = try await run(["quote", "--config", config, "--format", "json", "BTC-USD"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines.first?.hasPrefix(#"{"symbol":"BTC-USD","provider":"coinbase","price":755.96,"currency":"USD","time":"#) == true)
        // Two providers and no default: an error naming them.
        config = try configure(yahoo + "\n" + coinbase)
        result = try await run(["quote", "--config", config, "BTC-USD"])
        #expect(result.status == 1)
        #expect(result.errorLines == ["\(config): error: several providers and no default: name one with --provider (providers: yahoo, coinbase)"])
        // An unknown --provider.
        result = try await run(["quote", "--config", config, "--provider", "nope", "BTC-USD"])
        #expect(result.status == 1)
        #expect(result.errorLines == ["\(config): error: no provider 'nope' (providers: yahoo, coinbase)"])
    }

    @Test func aFailedBatchFailsEachOfItsSymbols() async throws {
        server.route("GET", "/v7/finance/quote") { _ in .text("Edge: Too Many Requests", status: 429, headers: [HTTPHeader("Retry-After", "30")]) }
        let config = try configure(yahoo)
        let result = try await run(["quote", "--config", config, "AAPL", "MSFT"])
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.errorLines == [
            "AAPL: error: yahoo v7 quote: HTTP 429: Edge: Too Many Requests (retry after 30 s)",
            "MSFT: error: yahoo v7 quote: HTTP 429: Edge: Too Many Requests (retry after 30 s)",
        ])
    }

    @Test func anInvalidConfigurationIsReportedWithExitOne() async throws {
        let config = try configure("[providers.stocks]\ntype = \"finnhub\"\n")
        let result = try await run(["quote", "--config", config, "AAPL"])
        #expect(result.status == 1)
        #expect(result.errorLines == ["\(config):1:1: error: providers.stocks: missing required key 'api_key' for type 'finnhub' (the service's API key, as a secret)"])
    }

    @Test func usageErrorsExitWith64() async throws {
        let config = try configure(yahoo)
        #expect(try await run(["quote", "--config", config]).status == 64)
        #expect(try await run(["quote", "--config", config, "--format", "xml", "AAPL"]).status == 64)
        #expect(try await run(["search", "--config", config]).status == 64)
        #expect(server.requests.isEmpty)
    }

    // MARK: search

    @Test func searchJSONAndText() async throws {
        server.route("GET", "/v1/finance/search", sequence: [try Self.fixture("yahoo", "search_BTC-USD.json")])
        let config = try configure(yahoo)
        let json = try await run(["search", "--config", config, "--format", "json", "BTC-USD"])
        #expect(json.status == 0, "\(json.standardError)")
        #expect(json.outputLines.count == 6)
        #expect(json.outputLines.first == #"{"symbol":"BTC-USD","name":"Bitcoin USD","exchange":"CCC","type":"CRYPTOCURRENCY"}"#)
        let text = try await run(["search", "--config", config, "bitcoin", "usd"])
        #expect(text.status == 0)
        #expect(Array(text.outputLines.prefix(2)) == [
            "SYMBOL          NAME                                   EXCHANGE  TYPE",
            "BTC-USD         Bitcoin USD                            CCC       CRYPTOCURRENCY",
        ])
        #expect(server.requests(path: "/v1/finance/search").map { $0.queryValue("q") } == ["BTC-USD", "bitcoin usd"])
    }

    @Test func searchWithFinnhubHasNullExchanges() async throws {
        server.route("GET", "/search") { request in
            request.header("X-Finnhub-Token") == "k-123" ? (try? Self.fixture("finnhub", "search_apple_docs_sample.json")) ?? .status(500) : .status(401)
        }
        try directory.write("finnhub.key", "k-123\n")
        let config = try configure("[providers.stocks]\ntype = \"finnhub\"\napi_key = { file = \"finnhub.key\" }\nbase_url = \"\(server.baseURL)\"\n")
        let result = try await run(["search", "--config", config, "--format", "json", "apple"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines.first == #"{"symbol":"AAPL","name":"APPLE INC","exchange":null,"type":"Common Stock"}"#)
    }

    @Test func aProviderThatCannotSearchIsAnError() async throws {
        let config = try configure("[providers.coinbase]\ntype = \"coinbase\"\nbase_url = \"\(server.baseURL)\"\n")
        let result = try await run(["search", "--config", config, "bitcoin"])
        #expect(result.status == 1)
        #expect(result.errorLines == ["\(config): error: provider 'coinbase' (type coinbase) cannot search symbols"])
    }

    @Test func aFailedSearchExitsOne() async throws {
        server.route("GET", "/v1/finance/search") { _ in .html("<html>blocked</html>") }
        let config = try configure(yahoo)
        let result = try await run(["search", "--config", config, "apple"])
        #expect(result.status == 1)
        #expect(result.errorLines == ["apple: error: yahoo v1 search: expected JSON, found an HTML page (HTTP 200)"])
    }

    @Test func aReplayedSymbolNotInTheFileIsNamedOnce() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("pricewatch.toml", """
            [providers.replay]
            type = "replay"
            file = "prices.csv"
            [sinks.out]
            type = "stdout"
            """)
        try directory.write("prices.csv", "symbol,time,price\nAAPL,2024-10-02,225.70\n")
        let result = try await CommandRunner.run(["quote", "--config", "pricewatch.toml", "NOPE"], in: directory.path)
        #expect(result.status == 1)
        #expect(result.errorLines == ["NOPE: error: not in the replay file"])
    }
}
