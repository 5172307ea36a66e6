import Foundation
import PriceWatchCore
import PriceWatchStore
import PriceWatchTestKit
import Testing

/// `pricewatch watch` end to end, piped (so it prints once): a state database holding the real
/// AAPL session of 2024-10-02 as the daemon would have stored it, against a golden file.
@Suite struct WatchCommandTests {
    let directory: TemporaryDirectory

    init() async throws {
        directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("rules.d"), withIntermediateDirectories: true)
        try directory.write("rules.d/watch.toml", """
            [[rule]]
            id = "aapl-above-226.5"
            symbol = "AAPL"
            above = 226.5

            [[rule]]
            id = "msft-below-400"
            symbols = ["MSFT"]
            below = 400
            """)
        try directory.write("pricewatch.toml", """
            state = "\(directory.file("state/pricewatch.db"))"
            [providers.yahoo]
            type = "yahoo"
            [sinks.console]
            type = "stdout"
            """)
        let quotes = try DemoSession.quotes()
        let store = try SQLiteAlertStore.open(path: directory.file("state/pricewatch.db"))
        try await store.commit(StoreCommit(provider: "yahoo", quotes: quotes, now: Timestamp(seconds: 1_727_900_000)))
        try await store.recordQuotes(quotes)
        try store.close()
    }

    @Test func textTableMatchesTheGoldenFile() async throws {
        let result = try await CommandRunner.run(["watch", "--config", directory.file("pricewatch.toml"), "--tz", "America/New_York"],
                                                 in: directory.path)
        #expect(result.status == 0, "\(result.standardError)")
        let path = RepositoryFiles.path("Tests/Fixtures/history/watch-aapl-2024-10-02.txt")
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try result.standardOutput.write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(result.standardOutput == (try String(contentsOfFile: path, encoding: .utf8)))
        // Printed once (piped): no screen clearing.
        #expect(!result.standardOutput.contains("\u{1B}["))
    }

    @Test func marketZoneFallsBackToUTCWithoutCalendarsAndBadZonesAreUsageErrors() async throws {
        // The default calendars know no market: `--tz market` prints UTC.
        let result = try await CommandRunner.run(["watch", "--config", directory.file("pricewatch.toml"), "--tz", "market"],
                                                 in: directory.path, environment: ["TZ": "Asia/Tokyo"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines.dropFirst().first?.contains("2024-10-02 19:59") == true)
        let tokyo = try await CommandRunner.run(["watch", "--config", directory.file("pricewatch.toml")],
                                                in: directory.path, environment: ["TZ": "Asia/Tokyo"])
        #expect(tokyo.outputLines.dropFirst().first?.contains("2024-10-03 04:59") == true)
        #expect(try await CommandRunner.run(["watch", "--config", directory.file("pricewatch.toml"), "--tz", "Nowhere/Else"],
                                            in: directory.path).status == 64)
    }

    @Test func jsonLinesOnePerSymbol() async throws {
        let result = try await CommandRunner.run(["watch", "--config", directory.file("pricewatch.toml"), "--format", "json"],
                                                 in: directory.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines.count == 2)
        #expect(result.outputLines.first?.hasPrefix(#"{"symbol":"AAPL","provider":"yahoo","price":226.81,"time":"2024-10-02T19:59:00Z","previous_close":226.21,"change":0.27,"currency":"USD","day_low":223.31,"day_high":227.32,"day_closes":389"#) == true)
        #expect(result.outputLines.last?.hasPrefix(#"{"symbol":"MSFT","provider":"yahoo","price":null"#) == true)
    }
}
