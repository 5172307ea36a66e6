import Foundation
import Testing
import PriceWatchConfig
import PriceWatchCore

/// `ConfigurationLoader.loadRules(at:)`, for `pricewatch backtest --rules PATH`: rule files
/// without a main file, so `provider` and `notify` are kept as written and not checked.
@Suite struct LoadRulesTests {
    @Test func aSingleFile() throws {
        let fixture = try ConfigFixture([
            "tech.toml": GoldenCase.rule("id = \"x\"\nsymbol = \"AAPL\"\nprovider = \"nowhere\"\nnotify = [\"nobody\"]\nabove = 227")
                + GoldenCase.rule("id = \"y\"\nsymbol = \"AAPL\"\nfall = 1"),
        ])
        defer { fixture.remove() }
        let (rules, diagnostics) = ConfigurationLoader.loadRules(at: fixture.path("tech.toml"))
        #expect(diagnostics.isEmpty)
        #expect(rules?.map(\.id) == ["x", "y"])
        #expect(rules?.map(\.provider) == ["nowhere", nil])
        #expect(rules?.map(\.notify) == [["nobody"], []])
    }

    @Test func aPortfolioRuleIsLeftOutWithAWarning() throws {
        let fixture = try ConfigFixture([
            "r.toml": GoldenCase.rule("id = \"p\"\nportfolio = \"retirement\"\nmeasure = \"value\"\nbelow = 1")
                + GoldenCase.rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 1"),
        ])
        defer { fixture.remove() }
        let (rules, diagnostics) = ConfigurationLoader.loadRules(at: fixture.path("r.toml"))
        #expect(fixture.render(diagnostics) == ["$DIR/r.toml:1:1: warning: rule 'p': watches portfolio 'retirement': not backtested "
                                                + "(a backtest replays prices)"])
        #expect(rules?.map(\.id) == ["x"])
    }

    @Test func aDirectory() throws {
        let fixture = try ConfigFixture([
            "rules/2.toml": GoldenCase.rule("id = \"second\"\nsymbol = \"AAPL\"\nabove = 1"),
            "rules/1.toml": GoldenCase.rule("id = \"first\"\nsymbol = \"AAPL\"\nbelow = 1"),
            "rules/readme.md": "not read",
        ])
        defer { fixture.remove() }
        let (rules, diagnostics) = ConfigurationLoader.loadRules(at: fixture.path("rules"))
        #expect(diagnostics.isEmpty)
        #expect(rules?.map(\.id) == ["first", "second"])
    }

    @Test func errorsAreReportedUnderThePathAsGiven() throws {
        let fixture = try ConfigFixture([
            "rules/a.toml": GoldenCase.rule("id = \"dup\"\nsymbol = \"AAPL\"\nabove = 1"),
            "rules/b.toml": GoldenCase.rule("id = \"dup\"\nsymbol = \"AAPL\"\nabove = 1\nbelow = 2"),
        ])
        defer { fixture.remove() }
        let (rules, diagnostics) = ConfigurationLoader.loadRules(at: fixture.path("rules") + "/")
        #expect(rules == nil)
        #expect(fixture.render(diagnostics) == [
            "$DIR/rules/b.toml:2:1: error: rule 'dup': duplicate id; first defined at $DIR/rules/a.toml:2",
            "$DIR/rules/b.toml:5:1: error: rule 'dup': expected exactly one condition, found 'above' and 'below'",
        ])
    }

    @Test func aMissingPathIsAnError() {
        let path = "/nonexistent-\(UUID().uuidString)/rules.toml"
        let (rules, diagnostics) = ConfigurationLoader.loadRules(at: path)
        #expect(rules == nil)
        #expect(diagnostics.map(\.description) == ["\(path): error: cannot read the rules: no such file or directory"])
    }

    @Test func anEmptyDirectoryIsAWarning() throws {
        let fixture = try ConfigFixture(["rules/notes.txt": "nothing"])
        defer { fixture.remove() }
        let (rules, diagnostics) = ConfigurationLoader.loadRules(at: fixture.path("rules"))
        #expect(rules == [])
        #expect(fixture.render(diagnostics) == ["$DIR/rules: warning: no rules are defined"])
    }
}
