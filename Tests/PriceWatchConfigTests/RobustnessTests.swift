import Foundation
import Testing
import PriceWatchConfig
import PriceWatchCore

/// The loader never traps, whatever the files hold.
@Suite struct RobustnessTests {
    @Test func everyPrefixOfTheExampleLoadsWithoutTrapping() throws {
        let text = try String(contentsOfFile: ExampleConfigurationTests.packageRoot + "/etc/pricewatch/rules.d/10-levels.toml",
                              encoding: .utf8)
        let fixture = try ConfigFixture(["pricewatch.toml": GoldenCase.main, "quotes.csv": GoldenCase.csv])
        defer { fixture.remove() }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for count in 0...lines.count {
            try fixture.write("rules.d/a.toml", lines.prefix(count).joined(separator: "\n"))
            _ = fixture.load()
            _ = ConfigurationLoader.loadRules(at: fixture.path("rules.d"))
        }
    }

    @Test func oddValuesAreErrorsNotTraps() throws {
        let fixture = try ConfigFixture([
            "pricewatch.toml": GoldenCase.main + "\n\n[providers.\"we ird\"]\ntype = 5\n\n[sinks]\nx = 1\n",
            "quotes.csv": GoldenCase.csv,
            "rules.d/a.toml": """
                rule = [1, { id = "inline", symbol = "AAPL", above = inf }, { id = "nan", symbol = "AAPL", below = nan }]
                """,
            "rules.d/b.toml": """
                [[rule]]
                id = "huge"
                symbol = "AAPL"
                above = 99999999999999
                expires = 07:32:00
                message = ""
                """,
            "rules.d/c.toml": "\u{FEFF}[[rule]]\nid = \"bom\"\nsymbol = \"AAPL\"\nabove = 1\n",
        ])
        defer { fixture.remove() }
        try FileManager.default.createDirectory(atPath: fixture.path("rules.d/d.toml"), withIntermediateDirectories: true)
        try Data([0xFF, 0xFE, 0x00]).write(to: URL(fileURLWithPath: fixture.path("rules.d/e.toml")))
        let (configuration, diagnostics) = fixture.load()
        #expect(configuration == nil)
        #expect(diagnostics.containsErrors)
        #expect(fixture.render(diagnostics) == [
            "$DIR/pricewatch.toml:8:1: error: providers.\"we ird\": expected a provider name of letters, digits, '_' and '-' "
                + "(starting with a letter or digit), found \"we ird\"",
            "$DIR/pricewatch.toml:9:1: error: providers.\"we ird\".type: expected a provider type, found an integer",
            "$DIR/pricewatch.toml:12:1: error: sinks.x: expected a table, found an integer",
            "$DIR/rules.d/a.toml:1:9: error: rule #1: expected a table, found an integer",
            "$DIR/rules.d/a.toml:1:12: error: rule 'inline': no provider: name one with 'provider', or set a default "
                + "'provider' in $DIR/pricewatch.toml (providers: demo, we ird)",
            "$DIR/rules.d/a.toml:1:46: error: rule 'inline': above: expected a number, found inf",
            "$DIR/rules.d/a.toml:1:61: error: rule 'nan': no provider: name one with 'provider', or set a default "
                + "'provider' in $DIR/pricewatch.toml (providers: demo, we ird)",
            "$DIR/rules.d/a.toml:1:92: error: rule 'nan': below: expected a number, found nan",
            "$DIR/rules.d/b.toml:1:1: error: rule 'huge': no provider: name one with 'provider', or set a default "
                + "'provider' in $DIR/pricewatch.toml (providers: demo, we ird)",
            "$DIR/rules.d/b.toml:4:1: error: rule 'huge': above: expected a number between -92233720368 and "
                + "92233720368, found 99999999999999",
            "$DIR/rules.d/b.toml:5:1: error: rule 'huge': expires: expected a date-time such as 2027-06-30T00:00:00Z "
                + "or a date such as 2027-06-30, found a time",
            "$DIR/rules.d/b.toml:6:1: error: rule 'huge': message: expected a message template, found an empty string",
            "$DIR/rules.d/c.toml:1:1: error: rule 'bom': no provider: name one with 'provider', or set a default "
                + "'provider' in $DIR/pricewatch.toml (providers: demo, we ird)",
            "$DIR/rules.d/e.toml: error: cannot read the rule file: it is not UTF-8 text",
        ])
    }

    @Test func deepNestingIsAnErrorNotAStackOverflow() throws {
        let deep = String(repeating: "[", count: 20_000) + String(repeating: "]", count: 20_000)
        let fixture = try ConfigFixture([
            "pricewatch.toml": GoldenCase.main,
            "quotes.csv": GoldenCase.csv,
            "rules.d/a.toml": "[[rule]]\nid = \"x\"\nsymbol = \"AAPL\"\nabove = " + deep + "\n",
            "rules.d/b.toml": "[[rule]]\nid = \"y\"\nsymbols = " + String(repeating: "[", count: 200) + "\"A\""
                + String(repeating: "]", count: 200) + "\nabove = 1\n",
        ])
        defer { fixture.remove() }
        let (configuration, diagnostics) = fixture.load()
        #expect(configuration == nil)
        #expect(diagnostics.filter { $0.severity == .error }.map(\.path) == [fixture.path("rules.d/a.toml"), fixture.path("rules.d/b.toml")])
    }
}
