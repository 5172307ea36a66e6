import Foundation
import PriceWatchTestKit
import Testing

/// Inputs `scripts/fuzz` found that crashed the configuration loader, each through `check` in
/// a process of its own (a crash fails the test, not the test run). Fixtures in
/// `Tests/Fixtures/fuzz/config/`.
@Suite struct FuzzFindingTests {
    /// The fuzzer's input (a rule file whose table header is `[[.`) and its minimal form: the
    /// TOML library used before (TOMLKit's toml++) failed an assertion and aborted `check`, and a
    /// daemon reloading such a file. Our own parser reports it at its position.
    @Test(arguments: ["table-header-starting-with-a-dot.toml", "table-header-starting-with-a-dot-minimal.toml"])
    func aRuleFileWithATableHeaderStartingWithADotIsAnErrorNotACrash(_ fixture: String) throws {
        let directory = try TemporaryDirectory()
        let rules = try String(contentsOfFile: RepositoryFiles.path("Tests/Fixtures/fuzz/config/\(fixture)"), encoding: .utf8)
        try ReplayDaemonFiles.write(in: directory, prices: ["10"], rules: rules)
        let result = try CommandRunner.run(["check", "--config", "pricewatch.toml"], in: directory.path)
        #expect(result.status == 1, "\(result.standardError.prefix(300))")
        #expect(result.standardError.contains("rules.d/x.toml:"), "the error names the file: \(result.standardError.prefix(300))")
    }
}
