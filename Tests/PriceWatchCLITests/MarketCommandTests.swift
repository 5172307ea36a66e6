import Foundation
import PriceWatchTestKit
import Testing

/// `pricewatch market` end to end against golden files: the built binary, the repository's
/// calendars (`PRICEWATCH_CALENDARS`), a fixed instant (the hidden `--now`) and a fixed local
/// zone (`TZ` or `--tz`). Serialized: each test blocks a thread while its command runs, and a
/// dozen at once would starve the other suites' asynchronous waits on a loaded 2-core machine.
@Suite(.serialized) struct MarketCommandTests {
    static let environment = ["PRICEWATCH_CALENDARS": RepositoryFiles.path("calendars"), "TZ": "Europe/Paris"]

    /// A configuration path in an empty directory: no calendars.d.
    static func isolated() throws -> (TemporaryDirectory, [String]) {
        let directory = try TemporaryDirectory()
        return (directory, ["--config", directory.file("pricewatch.toml")])
    }

    static func golden(_ name: String) throws -> String {
        try String(contentsOfFile: RepositoryFiles.path("Tests/Fixtures/markets/\(name)"), encoding: .utf8)
    }

    @Test(arguments: [
        (["--now", "2024-11-29T18:30:00Z"], "overview-2024-11-29T1830Z-paris.txt"),
        (["--now", "2024-11-29T18:30:00Z", "--format", "json"], "overview-2024-11-29T1830Z.jsonl"),
        (["XNYS", "--now", "2024-11-29T18:30:00Z", "--tz", "America/Los_Angeles"], "xnys-thanksgiving-week-los-angeles.txt"),
        (["XTKS", "--from", "2024-11-01", "--to", "2024-11-08", "--tz", "UTC"], "xtks-2024-11-01-to-08-utc.txt"),
        (["XHKG", "--from", "2024-12-23", "--to", "2024-12-31", "--format", "json"], "xhkg-christmas-2024.jsonl"),
    ])
    func goldenOutput(arguments: [String], golden: String) async throws {
        let (directory, config) = try Self.isolated()
        _ = directory
        let result = try await CommandRunner.run(["market"] + arguments + config, environment: Self.environment)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty, "\(result.standardError)")
        #expect(result.standardOutput == (try Self.golden(golden)))
    }

    @Test func anExchangeNameSuggestsItsMICCode() async throws {
        let (_, config) = try Self.isolated()
        let result = try await CommandRunner.run(["market", "NYSE"] + config, environment: Self.environment)
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("error: unknown market 'NYSE' (did you mean XNYS, the MIC code of NYSE?); known: "),
                "\(result.standardError)")
    }

    @Test func anUnknownMarketExits1WithASuggestion() async throws {
        let (directory, config) = try Self.isolated()
        _ = directory
        let result = try await CommandRunner.run(["market", "XNYZ"] + config, environment: Self.environment)
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.hasPrefix("error: unknown market 'XNYZ' (did you mean XNYS?); known: 24/5, 24/7, CMES,"), "\(result.standardError)")
    }

    @Test(arguments: [["XNYS", "--from", "2024-13-01"], ["XNYS", "--to", "yesterday"], ["XNYS", "--from", "2024-12-02", "--to", "2024-12-01"],
                      ["--tz", "Mars/Olympus_Mons"], ["--from", "2024-12-01"]])
    func badDatesAndZonesAreUsageErrors(arguments: [String]) async throws {
        let (directory, config) = try Self.isolated()
        _ = directory
        let result = try await CommandRunner.run(["market"] + arguments + config, environment: Self.environment)
        #expect(result.status == 64, "\(result.standardError)")
    }

    @Test func anAliasAndAnOverrideFromCalendarsD() async throws {
        let (directory, config) = try Self.isolated()
        try directory.write("calendars.d/XNYS.toml", """
            market = "XNYS"

            [[holiday]]
            name = "Closed for the test"
            date = 2024-11-25
            """)
        let result = try await CommandRunner.run(["market", "xnas", "--now", "2024-11-29T18:30:00Z", "--format", "json"] + config,
                                                 environment: Self.environment)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines.first == #"{"market":"XNYS","date":"2024-11-25","holiday":"Closed for the test"}"#)
    }

    @Test func withoutCalendarsEveryMarketIsUnknownAndTheWarningSaysWhy() async throws {
        let (directory, config) = try Self.isolated()
        let result = try await CommandRunner.run(["market", "--now", "2024-11-29T18:30:00Z"] + config,
                                                 environment: ["PRICEWATCH_CALENDARS": directory.file("missing"), "TZ": "UTC"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("warning: no trading calendars found"), "\(result.standardError)")
        #expect(result.errorLines.last == "error: no trading calendars to show; looked in \(directory.file("missing")), "
                    + "\(directory.path)/calendars.d", "\(result.standardError)")
        #expect(result.standardOutput.isEmpty, "no table without markets")
    }

    @Test func checkReportsABadCalendarFileWithItsPosition() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("pricewatch.toml", """
            [providers.replay]
            type = "replay"
            file = "prices.csv"
            [sinks.out]
            type = "stdout"
            """)
        try directory.write("prices.csv", "symbol,time,price\nAAPL,2024-10-02,225.70\n")
        try directory.write("rules.d/a.toml", "[[rule]]\nid = \"aapl-200\"\nsymbol = \"AAPL\"\nabove = 200\n")
        let good = try await CommandRunner.run(["check", "--config", directory.file("pricewatch.toml")], environment: Self.environment)
        #expect(good.status == 0, "\(good.standardError)")
        try directory.write("calendars.d/XLON.toml", "market = \"XLON\"\n\n[[early_close]]\nname = \"Half day\"\ndate = 2024-12-24\nclose = \"25:00\"\n")
        let bad = try await CommandRunner.run(["check", "--config", directory.file("pricewatch.toml")], environment: Self.environment)
        #expect(bad.status == 1)
        #expect(bad.standardError.contains("calendars.d/XLON.toml:6:1: error: early_close 'Half day': close: expected a time \"HH:MM\""),
                "\(bad.standardError)")
    }
}
