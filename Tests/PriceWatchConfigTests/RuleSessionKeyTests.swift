import PriceWatchCore
import Testing

/// `session = "…"` and `from = "open"` as read from rule files.
@Suite struct RuleSessionKeyTests {
    @Test func sessionAndFromOpenAreRead() throws {
        let files = ["rules.d/a.toml": GoldenCase.rule("id = \"x\"\nsymbol = \"AAPL\"\nrise = 2\nfrom = \"open\"\nsession = \"regular\"")
            + GoldenCase.rule("id = \"y\"\nsymbol = \"AAPL\"\nabove = 1")]
        let (rendered, configuration, fixture) = try GoldenCase(name: "session", files: files, expected: []).run()
        defer { fixture.remove() }
        #expect(rendered == [])
        let rules = try #require(configuration).rules
        #expect(rules.map(\.session) == [.regular, .always])
        #expect(rules.first?.baseline == .sessionOpen)
        #expect(rules.first?.conditionText == "rise 2% from open")
    }

    @Test func anUnknownSessionIsOneDiagnosticAtItsLine() throws {
        let files = ["rules.d/a.toml": GoldenCase.rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 1\nsession = \"night\"")]
        let (rendered, configuration, fixture) = try GoldenCase(name: "bad session", files: files, expected: []).run()
        defer { fixture.remove() }
        #expect(configuration == nil)
        #expect(rendered == ["$DIR/rules.d/a.toml:5:1: error: rule 'x': session: expected \"always\", \"regular\" or \"extended\", found \"night\""])
    }
}
