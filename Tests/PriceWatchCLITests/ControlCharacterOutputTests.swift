import Foundation
import PriceWatchStore
import PriceWatchTestKit
import Testing

/// Issue 29, items 6 and 7: text a command prints from data it read (a silence's comment, a
/// replay or backtest CSV's symbol and price, a calendar file's market) could forge lines of
/// its own with CR and LF, or put a NUL or an escape sequence on the terminal. Every command's
/// output escapes them (`ControlCharacters`); this feeds control characters through each.
@Suite struct ControlCharacterOutputTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("rules.d"), withIntermediateDirectories: true)
    }

    /// Control characters other than the newlines that end lines, as Unicode scalars.
    static func rawControls(_ text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            let value = scalar.value
            return scalar != "\n" && (value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029)
        }.map { String(format: "U+%04X", $0.value) }
    }

    /// Whether any line of the output starts with a forged marker.
    static func forged(_ result: CommandRunner.Result) -> [String] {
        (result.outputLines + result.errorLines).filter { $0.hasPrefix("ALERT") || $0.hasPrefix("X: ") || $0.hasPrefix("Y") || $0.hasPrefix("FORGED") }
    }

    func expectClean(_ result: CommandRunner.Result, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let all = result.standardOutput + result.standardError
        #expect(Self.rawControls(all).isEmpty, "\(what): raw \(Self.rawControls(all)) in \(all.debugDescription)", sourceLocation: sourceLocation)
        #expect(Self.forged(result).isEmpty, "\(what): forged lines \(Self.forged(result))", sourceLocation: sourceLocation)
    }

    /// A replay file whose symbol carries CR LF, and another row whose price carries a NUL.
    func writeReplayConfiguration() throws {
        try directory.write("pricewatch.toml", """
            state = "state/pricewatch.db"
            interval = "1s"
            [providers.replay]
            type = "replay"
            file = "prices.csv"
            [sinks.out]
            type = "stdout"
            """)
        try directory.write("rules.d/x.toml", "[[rule]]\nid = \"x-crosses-15\"\nsymbol = \"X\"\ncrosses = 15\n")
        try directory.write("prices.csv", """
            symbol,time,price
            X,1727875800,10
            "AAA\r\nALERT forged",1727875800,10
            X,1727875860,20
            "AAA\r\nALERT forged",1727875860,20\u{1b}[2J
            Z,1727875920,1\u{0}2

            """)
    }

    @Test func checkAndBacktestEscapeASymbolAndAPriceFromTheCSV() async throws {
        try writeReplayConfiguration()
        let check = try await CommandRunner.run(["check", "--config", "pricewatch.toml"], in: directory.path)
        expectClean(check, "check")
        #expect(check.status != 0, "the file has errors: \(check.standardError)")
        try directory.write("forged.toml", "[[rule]]\nid = \"forged\"\nsymbol = \"AAA\\r\\nALERT forged\"\nabove = 5\n")
        for format in ["text", "json"] {
            let backtest = try await CommandRunner.run(["backtest", "--rules", "forged.toml", "--data", "prices.csv", "--format", format],
                                                       in: directory.path)
            expectClean(backtest, "backtest --format \(format)")
        }
        try directory.write("clean.csv", "symbol,time,price\n\"AAA\r\nALERT forged\",1727875800,10\nX,1727875800,10\n")
        let backtest = try await CommandRunner.run(["backtest", "--rules", "rules.d", "--data", "clean.csv"], in: directory.path)
        expectClean(backtest, "backtest of a file whose only problem is the symbol")
    }

    @Test func runEscapesASymbolFromTheReplayFile() async throws {
        try writeReplayConfiguration()
        try directory.write("prices.csv", "symbol,time,price\nX,1727875800,10\n\"AAA\r\nALERT forged\",1727875800,10\nX,1727875860,20\n")
        try directory.write("rules.d/y.toml", "[[rule]]\nid = \"forged\"\nsymbol = \"AAA\\r\\nALERT forged\"\nabove = 5\n")
        let result = try await CommandRunner.run(["run", "--config", "pricewatch.toml", "--log-target", "stderr"], in: directory.path,
                                                 timeout: .seconds(60))
        // The daemon refuses the file at start (exit 78) rather than run with such a symbol.
        #expect(result.status == 78, "\(result.standardError)")
        expectClean(result, "run")
    }

    @Test func silenceListEscapesAComment() async throws {
        try writeReplayConfiguration()
        try directory.write("prices.csv", "symbol,time,price\nX,1727875800,10\n")
        // The state database must exist (the daemon creates it at its first start).
        try FileManager.default.createDirectory(atPath: directory.file("state"), withIntermediateDirectories: true)
        try SQLiteAlertStore.open(path: directory.file("state/pricewatch.db")).close()
        let added = try await CommandRunner.run(["silence", "add", "--config", "pricewatch.toml", "--rule", "x-crosses-15",
                                                 "--comment", "deploy\r\nX: y\u{1b}[2J"], in: directory.path)
        expectClean(added, "silence add")
        for format in ["text", "json"] {
            let listed = try await CommandRunner.run(["silence", "list", "--config", "pricewatch.toml", "--format", format], in: directory.path)
            expectClean(listed, "silence list --format \(format)")
        }
    }

    @Test func marketEscapesACalendarsMarketCode() async throws {
        try directory.write("pricewatch.toml", "")
        try FileManager.default.createDirectory(atPath: directory.file("calendars.d"), withIntermediateDirectories: true)
        try directory.write("calendars.d/forged.toml", """
            market = "X\\r\\nY: forged"
            name = "Forged\\r\\nFORGED market"
            time_zone = "UTC"
            trading_days = ["mon", "tue", "wed", "thu", "fri"]
            [[hours]]
            open = "09:00"
            close = "17:00"
            """)
        for arguments in [["market"], ["market", "--format", "json"], ["market", "X\r\nY: forged"], ["market", "NOPE"], ["check"]] {
            let result = try await CommandRunner.run(arguments + ["--config", "pricewatch.toml"], in: directory.path,
                                                     environment: ["PRICEWATCH_CALENDARS": RepositoryFiles.path("calendars")])
            expectClean(result, arguments.joined(separator: " "))
        }
    }
}
