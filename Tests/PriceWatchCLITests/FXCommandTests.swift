import Foundation
import PriceWatchCore
import PriceWatchTestKit
import Testing

/// `pricewatch fx` end to end against a loopback server serving the ECB's recorded daily file.
@Suite struct FXCommandTests {
    @Test func ratesDirectTriangulatedStaleAndUnknown() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let xml = try String(contentsOfFile: RepositoryFiles.path("Tests/Fixtures/providers/ecb/eurofxref-daily_2018-06-11.xml"), encoding: .utf8)
        server.route("GET", "/daily.xml") { _ in .text(xml) }
        let url = server.baseURL + "/daily.xml"
        let direct = try await CommandRunner.run(["fx", "EUR", "USD", "--url", url, "--now", "2018-06-12T08:00:00Z"])
        #expect(direct.status == 0, "\(direct.standardError)")
        #expect(direct.standardOutput == "1 EUR = 1.179 USD (ecb, 2018-06-11T14:00:00Z)\n")
        let triangulated = try await CommandRunner.run(["fx", "gbp", "usd", "--url", url, "--now", "2018-06-12T08:00:00Z", "--format", "json"])
        #expect(triangulated.standardOutput
                == #"{"base":"GBP","quote":"USD","rate":1.33703788,"time":"2018-06-11T14:00:00Z","source":"ecb","stale":false}"# + "\n")
        let stale = try await CommandRunner.run(["fx", "EUR", "JPY", "--url", url, "--now", "2018-06-20T08:00:00Z"])
        #expect(stale.standardOutput.hasSuffix(", stale)\n"), "\(stale.standardOutput)")
        let unknown = try await CommandRunner.run(["fx", "EUR", "XAU", "--url", url])
        #expect(unknown.status == 1)
        #expect(unknown.standardError.hasPrefix("error: no rate from EUR to XAU in the ecb rates (currencies: "), "\(unknown.standardError)")
        let usage = try await CommandRunner.run(["fx", "EURO", "USD"])
        #expect(usage.status == 64)
    }
}

/// `paper leaderboard --rates`: accounts in another currency converted at the reference rate.
@Suite struct PaperLeaderboardRatesTests {
    @Test func anAccountInEurosIsConvertedAtTheECBRate() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let xml = try String(contentsOfFile: RepositoryFiles.path("Tests/Fixtures/providers/ecb/eurofxref-daily_2018-06-11.xml"), encoding: .utf8)
        server.route("GET", "/daily.xml") { _ in .text(xml) }
        let directory = try TemporaryDirectory()
        try ReplayDaemonFiles.write(in: directory, prices: ["10"])
        for (name, currency) in [("dollars", "USD"), ("euros", "EUR")] {
            let opened = try await CommandRunner.run(["paper", "open", name, "--cash", "1000", "--currency", currency, "--config", "pricewatch.toml"],
                                                     in: directory.path)
            #expect(opened.status == 0, "\(opened.standardError)")
        }
        let without = try await CommandRunner.run(["paper", "leaderboard", "--currency", "USD", "--format", "json", "--config", "pricewatch.toml"],
                                                  in: directory.path)
        #expect(without.standardOutput.contains("\"account\":\"euros\"") && without.standardOutput.contains("\"converted_equity\":null"),
                "\(without.standardOutput)")
        let with = try await CommandRunner.run(["paper", "leaderboard", "--currency", "USD", "--format", "json", "--rates", "ecb",
                                                "--rates-url", server.baseURL + "/daily.xml", "--config", "pricewatch.toml"], in: directory.path)
        #expect(with.status == 0, "\(with.standardError)")
        #expect(with.standardOutput.contains("\"converted_equity\":1179"), "1,000 EUR at 1.179: \(with.standardOutput)")
    }
}
