import Foundation
import Testing
import PriceWatchApp
import PriceWatchConfig
import PriceWatchCore

/// Every error of every file is reported in one pass, sorted by file then line
/// (`docs/configuration.md`, "Files"): one bad rule, or one file that is not TOML, stops nothing else.
@Suite struct AllErrorsAtOnceTests {
    @Test func mistakesInSeveralFilesAreAllReportedSorted() throws {
        let fixture = try ConfigFixture([
            "pricewatch.toml": """
                interval = "5x"

                [providers.demo]
                type = "replay"
                file = "quotes.csv"
                intervl = "1m"

                [sinks.console]
                type = "stdout"
                """,
            "quotes.csv": GoldenCase.csv,
            "rules.d/10-tech.toml": """
                [[rule]]
                id = "aapl-200"
                symbol = "AAPL"
                rise = 5
                rearm = 6

                [[rule]]
                id = "msft-ok"
                symbol = "MSFT"
                above = 500

                [[rule]]
                id = "Bad Id"
                symbol = "AAPL"
                below = -1
                """,
            "rules.d/20-broken.toml": """
                [[rule]]
                id = "broken"
                symbol = "AAPL
                above = 1
                """,
            "rules.d/30-more.toml": """
                # a duplicate of a rule in 10-tech.toml, and a second mistake in the same rule
                [[rule]]
                id = "msft-ok"
                symbol = "MSFT"
                crosses = 300
                notify = ["consol"]
                """,
        ])
        defer { fixture.remove() }
        let (configuration, diagnostics) = fixture.load()
        #expect(configuration == nil)
        #expect(fixture.render(diagnostics) == [
            "$DIR/pricewatch.toml:1:1: error: interval: expected a duration such as \"30s\", \"5m\", \"1h30m\" or \"7d\", "
                + "found \"5x\" (unknown unit 'x'; units are s, m, h, d)",
            "$DIR/pricewatch.toml:6:1: error: unknown key 'intervl' in providers.demo; did you mean 'interval'?",
            "$DIR/rules.d/10-tech.toml:5:1: error: rule 'aapl-200': 'rearm' must be smaller than 'rise' (5), got 6",
            "$DIR/rules.d/10-tech.toml:13:1: error: rule 'Bad Id': id: expected lowercase letters, digits, '_', '.' or '-', "
                + "starting with a letter or digit ([a-z0-9][a-z0-9_.-]*), found \"Bad Id\"",
            "$DIR/rules.d/10-tech.toml:15:1: error: rule 'Bad Id': below: expected a price greater than 0, found -1",
            "$DIR/rules.d/20-broken.toml:3:10: error: invalid TOML: unterminated string: the closing '\"' is missing "
                + "on this line (a \"...\" string ends on the line it starts; use \"\"\"...\"\"\" for several lines)",
            "$DIR/rules.d/30-more.toml:3:1: error: rule 'msft-ok': duplicate id; first defined at $DIR/rules.d/10-tech.toml:8",
            "$DIR/rules.d/30-more.toml:6:11: error: rule 'msft-ok': notify: unknown sink 'consol'; did you mean 'console'?",
        ])
    }

    @Test func rulesAreCheckedEvenWhenTheMainFileIsNotTOML() throws {
        let fixture = try ConfigFixture([
            "pricewatch.toml": "rules = \"rules\"\n[providers.demo\ntype = \"replay\"\n",
            "rules/a.toml": GoldenCase.rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200\nbelow = 100"),
        ])
        defer { fixture.remove() }
        let (configuration, diagnostics) = fixture.load()
        #expect(configuration == nil)
        let rendered = fixture.render(diagnostics)
        #expect(rendered.count == 2)
        #expect(rendered.first?.hasPrefix("$DIR/pricewatch.toml:2:") == true)
        #expect(rendered.first?.contains(": error: invalid TOML: ") == true)
        #expect(rendered.last == "$DIR/rules/a.toml:5:1: error: rule 'x': expected exactly one condition, found 'above' and 'below'")
    }

    /// Issue 30, item 9: after a TOML syntax error the parser resynchronises at the next table
    /// header, so every bad line of a file shows in one check, each with its file and line.
    @Test func severalSyntaxErrorsInOneFileAreAllReported() throws {
        let fixture = try ConfigFixture([
            "pricewatch.toml": GoldenCase.main,
            "quotes.csv": GoldenCase.csv,
            "rules.d/a.toml": GoldenCase.rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = = 200")
                + GoldenCase.rule("id = \"y\"\nsymbol = \"AAPL\"\nabove = 200")
                + GoldenCase.rule("id = \"z\"\nsymbol = \"AAPL\"\nbelow = 1O0"),
        ])
        defer { fixture.remove() }
        let (configuration, diagnostics) = fixture.load()
        #expect(configuration == nil)
        let rendered = fixture.render(diagnostics)
        #expect(rendered.count == 2, "\(rendered)")
        #expect(rendered.first == "$DIR/rules.d/a.toml:4:9: error: invalid TOML: error while parsing value: could not determine value type")
        #expect(rendered.last?.hasPrefix("$DIR/rules.d/a.toml:12:") == true, "\(rendered)")
        #expect(rendered.last?.contains(": error: invalid TOML: ") == true, "\(rendered)")
    }

    @Test func aMissingMainFileIsOneError() {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("missing-\(UUID().uuidString)/pricewatch.toml").path
        let (configuration, diagnostics) = ConfigurationLoader.load(mainFile: path, environment: [:], schemas: AdapterCatalog.schemas)
        #expect(configuration == nil)
        #expect(diagnostics.map(\.description) == ["\(path): error: cannot read the configuration file: no such file"])
    }

    @Test func ruleFilePathsStartWithTheMainFileDirectoryAsWritten() throws {
        let fixture = try ConfigFixture([
            "etc/pricewatch/pricewatch.toml": GoldenCase.main.replacingOccurrences(of: "quotes.csv", with: "../../quotes.csv"),
            "quotes.csv": GoldenCase.csv,
            "etc/pricewatch/rules.d/tech.toml": GoldenCase.rule("id = \"aapl-200\"\nsymbol = \"AAPL\"\nrise = 5\nrearm = 6"),
        ])
        defer { fixture.remove() }
        // The main file named by a relative path (`--config ../../tmp/…/etc/pricewatch/pricewatch.toml`):
        // rule files are shown under its directory, relative too.
        let up = FileManager.default.currentDirectoryPath.split(separator: "/").map { _ in ".." }.joined(separator: "/")
        let relativeDirectory = up + fixture.directory
        let (_, diagnostics) = ConfigurationLoader.load(mainFile: relativeDirectory + "/etc/pricewatch/pricewatch.toml",
                                                        environment: [:], schemas: AdapterCatalog.schemas)
        #expect(diagnostics.map(\.description) == [
            "\(relativeDirectory)/etc/pricewatch/rules.d/tech.toml:5:1: error: rule 'aapl-200': 'rearm' must be smaller "
                + "than 'rise' (5), got 6",
        ])
    }
}
