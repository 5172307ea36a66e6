import Foundation
import PriceWatchTestKit
import Testing

/// Issue 29, item 8: input without bounds. A replay provider over `/dev/zero` made `check` and
/// the daemon's start read forever; a backtest CSV with one huge field was read whole and
/// echoed whole in its error. Lines and fields are bounded, a file that is not a regular file
/// is refused at once, and an error shows only the start of a bad value.
@Suite struct UnboundedInputTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("rules.d"), withIntermediateDirectories: true)
        try directory.write("rules.d/x.toml", "[[rule]]\nid = \"x-crosses-15\"\nsymbol = \"X\"\ncrosses = 15\n")
    }

    func configure(file: String) throws {
        try directory.write("pricewatch.toml", """
            state = "state/pricewatch.db"
            interval = "1s"
            [providers.replay]
            type = "replay"
            file = "\(file)"
            [sinks.out]
            type = "stdout"
            """)
    }

    @Test(arguments: [["check"], ["run", "--log-target", "stderr"]])
    func aReplayFileThatIsNotARegularFileIsRefusedAtOnce(command: [String]) async throws {
        try configure(file: "/dev/zero")
        let result = try await CommandRunner.run(command + ["--config", "pricewatch.toml"], in: directory.path, timeout: .seconds(30))
        #expect(result.status == (command[0] == "check" ? 1 : 78), "\(result.standardError)")
        #expect(result.standardError.contains("/dev/zero"), "\(result.standardError)")
        #expect(result.standardError.contains("expected a regular file"), "\(result.standardError)")
    }

    @Test func backtestRefusesAHugeFieldAndShowsOnlyItsStart() async throws {
        // 64 times the line bound (64 KiB): far past any buffer, and small enough that the debug
        // build reads it in about 2 s (20 MiB took 10 s idle and over 60 s in the loaded suite).
        let huge = String(repeating: "A", count: 4 << 20)
        try directory.write("prices.csv", "symbol,time,price\nX,1727875800,10\n\(huge),1727875860,20\nX,1727875860,\(huge)\nX,1727875920,20\n")
        let result = try await CommandRunner.run(["backtest", "--rules", "rules.d", "--data", "prices.csv"], in: directory.path,
                                                 timeout: .seconds(60))
        #expect(result.status != 0)
        #expect(result.standardError.utf8.count < 2_000, "\(result.standardError.utf8.count) bytes of errors: \(result.standardError.prefix(500))")
        #expect(result.errorLines.contains { $0.contains("prices.csv:3") && $0.contains("longer than") }, "\(result.standardError.prefix(1_000))")
        #expect(result.errorLines.contains { $0.contains("prices.csv:4") }, "\(result.standardError.prefix(1_000))")
    }

    @Test func aLongSymbolOrPriceIsShownByItsStart() async throws {
        let long = String(repeating: "B", count: 5_000)
        try directory.write("prices.csv", "symbol,time,price\n\(long),1727875800,10\nX,1727875860,1\(long)\n")
        let result = try await CommandRunner.run(["backtest", "--rules", "rules.d", "--data", "prices.csv"], in: directory.path)
        #expect(result.status != 0)
        #expect(result.errorLines.count == 2, "\(result.errorLines.map { $0.prefix(200) })")
        #expect(result.errorLines.allSatisfy { $0.utf8.count < 300 }, "\(result.errorLines.map { $0.prefix(300) })")
    }
}
