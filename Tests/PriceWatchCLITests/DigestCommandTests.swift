import Foundation
import PriceWatchCore
import PriceWatchStore
import PriceWatchTestKit
import Testing

/// `pricewatch digest` end to end: a state database holding the real AAPL session of
/// 2024-10-02 and one alert, as the daemon would have stored them; the preview in text (a
/// golden file), JSON and HTML (with its chart), `--send` queuing one digest per due time, and
/// the running daemon delivering it.
@Suite(.serialized) struct DigestCommandTests {
    let directory: TemporaryDirectory
    /// 2024-10-02 18:00 in New York.
    static let due = "2024-10-02T22:00:00Z"

    init() async throws {
        directory = try TemporaryDirectory()
        try directory.write("rules.d/digest.toml", """
            [[rule]]
            id = "aapl-above-226.5"
            symbol = "AAPL"
            above = 226.5

            [[rule]]
            id = "msft-below-400"
            symbol = "MSFT"
            below = 400
            """)
        try directory.write("pricewatch.toml", """
            state = "state/pricewatch.db"
            interval = "1s"
            [providers.replay]
            type = "replay"
            file = "none.csv"
            [sinks.console]
            type = "stdout"

            [[digest]]
            name = "evening"
            schedule = "daily 18:00 America/New_York"
            top = 3
            """)
        try directory.write("none.csv", "symbol,time,price\n")
        let quotes = try DemoSession.quotes()
        let alert = Alert(id: "00000000-0000-0000-0000-000000000001", rule: "aapl-above-226.5", symbol: "AAPL", provider: "replay",
                          condition: "above 226.5", price: try #require(ExactDecimal("226.6")), currency: "USD",
                          time: try #require(Timestamp(parsing: "2024-10-02T15:00:00Z")), base: nil, change: nil, direction: nil,
                          message: "AAPL 226.60 USD: above 226.5 (rule aapl-above-226.5)")
        let store = try SQLiteAlertStore.open(path: directory.file("state/pricewatch.db"))
        try await store.commit(StoreCommit(provider: "replay", quotes: quotes,
                                           alerts: [PendingAlert(alert: alert, sinks: ["console"])], now: Timestamp(seconds: 1_727_900_000)))
        try await store.recordQuotes(quotes)
        try store.close()
    }

    func digest(_ arguments: String...) async throws -> CommandRunner.Result {
        try await CommandRunner.run(["digest", "--config", directory.file("pricewatch.toml")] + arguments, in: directory.path)
    }

    @Test func thePreviewMatchesTheGoldenFileAndItsJSONAndHTML() async throws {
        let text = try await digest("evening", "--due", Self.due)
        #expect(text.status == 0, "\(text.standardError)")
        let path = RepositoryFiles.path("Tests/Fixtures/digest/preview-evening-2024-10-02.txt")
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try text.standardOutput.write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(text.standardOutput == (try String(contentsOfFile: path, encoding: .utf8)))

        let json = try await digest("evening", "--due", Self.due, "--format", "json")
        #expect(json.status == 0, "\(json.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["name"] as? String == "evening")
        #expect(object["window_start"] as? String == "2024-10-01T22:00:00Z" && object["window_end"] as? String == Self.due)
        let gainers = try #require(object["gainers"] as? [[String: Any]])
        #expect(gainers.first?["symbol"] as? String == "AAPL", "AAPL rose over the session: \(gainers)")
        #expect((gainers.first?["change_percent"] as? NSNumber)?.doubleValue == 0.49180328, "from the first open 225.7 to the last close 226.81")
        #expect(object["losers"] as? [Any] != nil && (object["losers"] as? [Any])?.isEmpty == true)
        #expect(object["without_data"] as? [String] == ["MSFT"])
        let alerts = try #require(object["alerts"] as? [[String: Any]])
        #expect(alerts.count == 1 && alerts.first?["rule"] as? String == "aapl-above-226.5")
        #expect(object["charts"] as? [String] == ["chart-AAPL.png"])

        let html = try await digest("evening", "--due", Self.due, "--format", "html")
        #expect(html.standardOutput.hasPrefix("<!DOCTYPE html>") && html.standardOutput.contains("src=\"cid:chart-AAPL.png@pricewatch\""))
        #expect(!html.standardOutput.contains("<script"))
    }

    @Test func sendQueuesOneDigestPerDueTimeAndTheDaemonDeliversIt() async throws {
        let first = try await digest("evening", "--due", Self.due, "--send")
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.hasPrefix("queued digest evening due \(Self.due) for console ("), "\(first.standardOutput)")
        let again = try await digest("evening", "--due", Self.due, "--send")
        #expect(again.status == 0)
        #expect(again.standardOutput.contains("was already queued"), "\(again.standardOutput)")

        let daemon = try RunningDaemon(arguments: ["run", "--config", "pricewatch.toml"], directory: directory.path)
        try await daemon.waitForOutput("the digest on standard output") { lines in
            lines.contains { $0.contains("pricewatch digest evening: 2024-10-01 18:00 to 2024-10-02 18:00") }
        }
        #expect(try await daemon.stop() == 0)
        #expect(daemon.outputLines.filter { $0.contains("pricewatch digest evening") }.count == 1, "delivered once")
    }

    @Test func paperAccountsAreASectionOfTheDigest() async throws {
        let opened = try await CommandRunner.run(["paper", "open", "alice", "--cash", "100000", "--currency", "USD",
                                                  "--config", directory.file("pricewatch.toml")], in: directory.path)
        #expect(opened.status == 0, "\(opened.standardError)")
        let text = try await digest("evening", "--due", Self.due)
        #expect(text.standardOutput.contains("\nPaper accounts\n  alice: equity 100000.00 USD, +0.00% since start, cash 100000.00, day 0.00\n"),
                "\(text.standardOutput)")
        let json = try await digest("evening", "--due", Self.due, "--format", "json")
        #expect(json.standardOutput.contains(#""sections":[{"title":"Paper accounts","lines":["alice: equity"#), "\(json.standardOutput)")
    }

    @Test func portfoliosAreASectionOfTheDigest() async throws {
        try directory.write("portfolios.d/core.toml", "currency = \"USD\"\n[[lot]]\nsymbol = \"AAPL\"\nquantity = 10\nprice = 200\ncurrency = \"USD\"\ndate = 2024-01-02\n")
        _ = chmod(directory.file("portfolios.d/core.toml"), 0o640)
        let text = try await digest("evening", "--due", Self.due)
        // 10 AAPL at the session's last price (226.81, recorded 20:00 UTC: fresh at the due time), bought at 200.
        #expect(text.standardOutput.contains("\nPortfolios\n  core: value 2268.10 USD, unrealised 268.10, day "), "\(text.standardOutput)")
    }

    /// A performance report: a digest naming its portfolios shows only those, with the period's
    /// change of the positions held (the last close before the period against the latest price)
    /// and the best and worst position; a name not in portfolios.d is a configuration error.
    @Test func aDigestNamingPortfoliosIsTheirPerformanceReport() async throws {
        try directory.write("portfolios.d/core.toml", "currency = \"USD\"\n[[lot]]\nsymbol = \"AAPL\"\nquantity = 10\nprice = 200\ncurrency = \"USD\"\ndate = 2024-01-02\n")
        try directory.write("portfolios.d/other.toml", "currency = \"USD\"\n[cash]\nUSD = 5\n")
        for name in ["core", "other"] { _ = chmod(directory.file("portfolios.d/\(name).toml"), 0o640) }
        // The day before: AAPL last at 220 before the period (18:00 New York on 2024-10-01) began.
        let store = try SQLiteAlertStore.open(path: directory.file("state/pricewatch.db"))
        try await store.recordQuotes([Quote(symbol: "AAPL", price: try #require(ExactDecimal("220")),
                                            time: try #require(Timestamp(parsing: "2024-10-01T19:59:00Z")), currency: "USD")])
        try store.close()
        let main = try String(contentsOfFile: directory.file("pricewatch.toml"), encoding: .utf8)
        try directory.write("pricewatch.toml", main + """

            [[digest]]
            name = "core-report"
            schedule = "daily 18:00 America/New_York"
            portfolios = ["core"]
            paper = ["bob"]
            """)
        let report = try await digest("core-report", "--due", Self.due)
        #expect(report.status == 0, "\(report.standardError)")
        // 10 × (226.81 − 220) = 68.10 USD on 2200.00: +3.10 %.
        #expect(report.standardOutput.contains("""

            Portfolios
              core: value 2268.10 USD, unrealised 268.10, day 
            """), "\(report.standardOutput)")
        #expect(report.standardOutput.contains("\n    day: +68.10 USD (+3.10%) on the positions held\n    best AAPL +3.10% (+68.10 USD)\n"),
                "\(report.standardOutput)")
        #expect(!report.standardOutput.contains("other:"), "only the portfolios it names")
        #expect(report.standardOutput.contains("\nPaper accounts\n  bob: no such paper account (pricewatch paper open bob ...)\n"),
                "\(report.standardOutput)")
        let everything = try await digest("evening", "--due", Self.due)
        #expect(everything.standardOutput.contains("  other: value 5.00 USD"), "a digest without the key shows every portfolio")

        try directory.write("pricewatch.toml", main + "\n[[digest]]\nname = \"r\"\nschedule = \"daily 18:00 UTC\"\nportfolios = [\"pension\"]\n")
        let wrong = try await digest("r")
        #expect(wrong.status == 1)
        #expect(wrong.standardError.contains("error: digest 'r': portfolios: no portfolio 'pension' in portfolios.d; portfolios: core, other"),
                "\(wrong.standardError)")
    }

    @Test func anUnknownDigestNamesTheKnownOnes() async throws {
        let result = try await digest("weekly")
        #expect(result.status == 1)
        #expect(result.standardError == "error: no digest named 'weekly'; digests: evening\n")
    }
}
