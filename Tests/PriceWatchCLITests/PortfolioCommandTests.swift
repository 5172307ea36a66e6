import Foundation
import PriceWatchCore
import PriceWatchStore
import PriceWatchTestKit
import Testing

/// `pricewatch portfolio` end to end: a portfolio file, the latest prices as the daemon would
/// have recorded them, and the ECB's recorded rates from a loopback server; golden text, JSON
/// and CSV.
@Suite(.serialized) struct PortfolioCommandTests {
    let directory: TemporaryDirectory
    static let now = "2018-06-12T20:00:00Z"

    init() async throws {
        directory = try TemporaryDirectory()
        try ReplayDaemonFiles.write(in: directory, prices: ["10"])
        try directory.write("portfolios.d/mixed.toml", """
            currency = "EUR"
            [cash]
            EUR = 1000
            USD = 117.90
            [[lot]]
            symbol = "AAPL"
            quantity = 10
            price = 150.25
            currency = "USD"
            date = 2023-05-02
            fees = 1.50
            [[lot]]
            symbol = "AAPL"
            quantity = -4
            price = 190
            currency = "USD"
            date = 2024-02-01
            fees = 1.50
            [[lot]]
            symbol = "SAP.DE"
            quantity = 20
            price = 120
            currency = "EUR"
            date = 2023-09-01
            fees = 2
            [[lot]]
            symbol = "VOD.L"
            quantity = 1000
            price = 0.70
            currency = "GBP"
            date = 2023-06-01
            """)
        _ = chmod(directory.file("portfolios.d/mixed.toml"), 0o640)
        let time = try #require(Timestamp(parsing: "2018-06-12T19:59:00Z"))
        let quotes = [Quote(symbol: "AAPL", price: try #require(ExactDecimal("226.78")), time: time, previousClose: ExactDecimal("225"), currency: "USD"),
                      Quote(symbol: "SAP.DE", price: try #require(ExactDecimal("180.50")), time: time, previousClose: ExactDecimal("181"), currency: "EUR")]
        let store = try SQLiteAlertStore.open(path: directory.file("state/pricewatch.db"))
        try await store.commit(StoreCommit(provider: "replay", quotes: quotes, now: time))
        try store.close()
    }

    func golden(_ format: String, _ output: String) throws {
        let path = RepositoryFiles.path("Tests/Fixtures/portfolios/mixed.\(format)")
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(atPath: RepositoryFiles.path("Tests/Fixtures/portfolios"), withIntermediateDirectories: true)
            try output.write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(output == (try String(contentsOfFile: path, encoding: .utf8)), "\(format) differs from \(path)")
    }

    /// Without `--rates`, the currency pairs the daemon recorded (polled for portfolio rules)
    /// convert, each named with its provider and time.
    @Test func withoutRatesTheRecordedCurrencyPairsConvert() async throws {
        let time = try #require(Timestamp(parsing: "2018-06-12T19:59:00Z"))
        let store = try SQLiteAlertStore.open(path: directory.file("state/pricewatch.db"))
        try await store.commit(StoreCommit(provider: "replay", quotes: [
            // 117.90 × 0.85 = 100.215: half-even to the cent is 100.22.
            Quote(symbol: "USDEUR=X", price: try #require(ExactDecimal("0.85")), time: time, currency: "EUR"),
        ], now: time))
        try store.close()
        let result = try await CommandRunner.run(["portfolio", "--config", "pricewatch.toml", "--now", Self.now], in: directory.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("rate AAPL: 1 USD = 0.85 EUR, replay 2018-06-12T19:59:00Z"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("cash USD 117.90 = 100.22 EUR (1 USD = 0.85 EUR, replay 2018-06-12T19:59:00Z)"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("VOD.L: no price"), "\(result.standardOutput)")
    }

    @Test func textJSONAndCSVMatchTheGoldenFiles() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let xml = try String(contentsOfFile: RepositoryFiles.path("Tests/Fixtures/providers/ecb/eurofxref-daily_2018-06-11.xml"), encoding: .utf8)
        server.route("GET", "/daily.xml") { _ in .text(xml) }
        for (format, file) in [("text", "txt"), ("json", "json"), ("csv", "csv")] {
            let result = try await CommandRunner.run(["portfolio", "--config", "pricewatch.toml", "--rates", "ecb", "--rates-url", server.baseURL + "/daily.xml",
                                                      "--now", Self.now, "--format", format], in: directory.path)
            #expect(result.status == 0, "\(result.standardError)")
            try golden(file, result.standardOutput)
        }
    }

    @Test func withoutRatesOtherCurrenciesAreLeftOutAndAnUnknownNameIsNamed() async throws {
        let result = try await CommandRunner.run(["portfolio", "mixed", "--config", "pricewatch.toml", "--now", Self.now], in: directory.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("not in the totals: AAPL: no rate from USD to EUR"))
        #expect(result.standardOutput.contains("not in the totals: VOD.L: no price"))
        let later = try await CommandRunner.run(["portfolio", "mixed", "--config", "pricewatch.toml", "--now", "2018-06-12T21:00:00Z"], in: directory.path)
        #expect(later.standardOutput.contains("not in the totals: SAP.DE: stale price of 2018-06-12T19:59:00Z (replay)"), "\(later.standardOutput)")
        let unknown = try await CommandRunner.run(["portfolio", "growth", "--config", "pricewatch.toml"], in: directory.path)
        #expect(unknown.status == 1)
        #expect(unknown.standardError == "error: no portfolio named 'growth'; portfolios: mixed\n")
    }
}
