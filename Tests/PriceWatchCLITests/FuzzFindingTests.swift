import Foundation
import PriceWatchTestKit
import Testing

/// Inputs `scripts/fuzz` found that crashed the configuration loader or broke a property of the
/// CSV reader, each through a command in a process of its own (a crash fails the test, not the
/// test run). Fixtures in `Tests/Fixtures/fuzz/TARGET/`.
@Suite struct FuzzFindingTests {
    /// The fuzzer's input (a rule file whose table header is `[[.`) and its minimal form: the
    /// TOML library used before (TOMLKit's toml++) failed an assertion and aborted `check`, and a
    /// daemon reloading such a file. Our own parser reports it at its position.
    @Test(arguments: ["table-header-starting-with-a-dot.toml", "table-header-starting-with-a-dot-minimal.toml"])
    func aRuleFileWithATableHeaderStartingWithADotIsAnErrorNotACrash(_ fixture: String) async throws {
        let directory = try TemporaryDirectory()
        let rules = try String(contentsOfFile: RepositoryFiles.path("Tests/Fixtures/fuzz/config/\(fixture)"), encoding: .utf8)
        try ReplayDaemonFiles.write(in: directory, prices: ["10"], rules: rules)
        let result = try await CommandRunner.run(["check", "--config", "pricewatch.toml"], in: directory.path)
        #expect(result.status == 1, "\(result.standardError.prefix(300))")
        #expect(result.standardError.contains("rules.d/x.toml:"), "the error names the file: \(result.standardError.prefix(300))")
    }

    /// `csv` (issue 29): the fuzz target's input blown up as the target does it (the header
    /// past the line bound, so the next line, whose fields hold hundreds of DEL and invalid
    /// bytes, becomes the header): `ignoring unknown column '...'` quoted the whole name, each
    /// DEL escaped to six characters, in a diagnostic of 1,100 bytes. Names are cut now.
    @Test func anUnknownColumnOfControlCharactersGivesAShortWarning() async throws {
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: RepositoryFiles.path("Tests/Fixtures/fuzz/csv/long-diagnostic.csv"))))
        // As Fuzz/Sources/fuzz-csv does for an odd first byte.
        bytes.insert(contentsOf: repeatElement(bytes[3], count: 65_536 + Int(bytes[2]) * 257), at: Int(bytes[1]) % bytes.count)
        let directory = try TemporaryDirectory()
        try Data(bytes).write(to: URL(fileURLWithPath: directory.file("prices.csv")))
        try directory.write("rules.toml", "[[rule]]\nid = \"x\"\nsymbol = \"X\"\nabove = 1\n")
        let result = try await CommandRunner.run(["backtest", "--rules", "rules.toml", "--data", "prices.csv"], in: directory.path)
        #expect(result.status != 0)
        #expect(result.errorLines.contains { $0.contains("ignoring unknown column") }, "\(result.standardError.prefix(500))")
        for line in result.errorLines {
            #expect(line.utf8.count < 1_000, "a diagnostic of \(line.utf8.count) bytes: \(line.prefix(200))")
        }
    }
}
