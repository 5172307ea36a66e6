import Foundation
import PriceWatchConfig
import PriceWatchCore
import Testing

/// Portfolio rules (`portfolio = "NAME"`, `measure`, `position`): read beside price rules,
/// kept apart from them in the configuration, their holdings and currency pairs polled
/// through their provider; every mistake a positioned diagnostic.
@Suite struct PortfolioRuleConfigTests {
    static let portfolio = """
        currency = "EUR"

        [cash]
        EUR = 1000

        [[lot]]
        symbol = "AAPL"
        quantity = 10
        price = 150
        currency = "USD"
        date = 2024-01-02
        """

    static func run(_ rules: String, portfolio: String = PortfolioRuleConfigTests.portfolio,
                    environment: [String: String] = [:]) throws -> (rendered: [String], configuration: Configuration?, fixture: ConfigFixture) {
        let fixture = try ConfigFixture(["pricewatch.toml": GoldenCase.main, "quotes.csv": GoldenCase.csv, "rules.d/a.toml": rules,
                                         "portfolios.d/retirement.toml": portfolio])
        // The mode the docs ask for: no warning about it.
        _ = chmod(fixture.path("portfolios.d/retirement.toml"), 0o640)
        let result = fixture.load(environment)
        return (fixture.render(result.diagnostics), result.configuration, fixture)
    }

    @Test func portfolioRulesAreKeptApartAndTheirSymbolsArePolled() throws {
        let rules = GoldenCase.rule("id = \"price\"\nsymbol = \"MSFT\"\nabove = 1")
            + GoldenCase.rule("id = \"low\"\nportfolio = \"retirement\"\nmeasure = \"value\"\nbelow = 90000\nrearm = 2")
            + GoldenCase.rule("id = \"loss\"\nportfolio = \"retirement\"\nmeasure = \"profit\"\nbelow = -500")
            + GoldenCase.rule("id = \"heavy\"\nportfolio = \"retirement\"\nmeasure = \"position_weight\"\nposition = \"AAPL\"\nabove = 40")
        let (rendered, configuration, fixture) = try Self.run(rules)
        defer { fixture.remove() }
        #expect(rendered == [])
        let loaded = try #require(configuration)
        #expect(loaded.rules.map(\.id) == ["price"])
        #expect(loaded.portfolioRules.map(\.id) == ["low", "loss", "heavy"])
        #expect(loaded.portfolioRules.map(\.symbols) == [["@retirement:value"], ["@retirement:profit"], ["@retirement/AAPL:position_weight"]])
        #expect(loaded.portfolioRules.map(\.provider) == ["demo", "demo", "demo"])
        #expect(loaded.portfolioRules.map(\.notify) == [["console"], ["console"], ["console"]])
        #expect(loaded.portfolioRules.first?.rearm == ExactDecimal("2"))
        #expect(loaded.portfolios.map(\.name) == ["retirement"])
        #expect(loaded.symbols(for: "demo") == ["AAPL", "MSFT", "USDEUR=X"])
        #expect(loaded.allSymbols == ["AAPL", "MSFT", "USDEUR=X"])
    }

    /// The shipped samples (`rules.d/30-portfolio.toml.sample` over
    /// `portfolios.d/example.toml.sample`) load as the comments say once copied.
    @Test func theShippedSampleRulesLoadOverTheSamplePortfolio() throws {
        let root = ExampleConfigurationTests.packageRoot + "/etc/pricewatch/"
        let rules = try String(contentsOfFile: root + "rules.d/30-portfolio.toml.sample", encoding: .utf8)
        let portfolio = try String(contentsOfFile: root + "portfolios.d/example.toml.sample", encoding: .utf8)
        let (rendered, configuration, fixture) = try Self.run(rules, portfolio: portfolio)
        defer { fixture.remove() }
        #expect(rendered == [])
        let loaded = try #require(configuration)
        #expect(loaded.portfolioRules.compactMap(\.portfolio?.measure) == [.value, .profit, .dayChangePercent, .positionWeight])
        #expect(loaded.symbols(for: "demo") == ["AAPL", "USDEUR=X"])
        // Only portfolio rules: the provider still polls their holdings.
        #expect(loaded.watchesSymbols(through: "demo"))
    }

    @Test func everyMistakeIsADiagnosticAtItsLine() throws {
        let rules = GoldenCase.rule("id = \"a\"\nportfolio = \"pension\"\nmeasure = \"value\"\nbelow = 1")
            + GoldenCase.rule("id = \"b\"\nportfolio = \"retirement\"\nmeasure = \"valeu\"\nbelow = 1")
            + GoldenCase.rule("id = \"c\"\nportfolio = \"retirement\"\nbelow = 1")
            + GoldenCase.rule("id = \"d\"\nportfolio = \"retirement\"\nmeasure = \"value\"\nfall = 3")
            + GoldenCase.rule("id = \"e\"\nportfolio = \"retirement\"\nmeasure = \"position_weight\"\nabove = 1")
            + GoldenCase.rule("id = \"f\"\nportfolio = \"retirement\"\nmeasure = \"position_weight\"\nposition = \"MSFT\"\nabove = 1")
            + GoldenCase.rule("id = \"g\"\nportfolio = \"retirement\"\nmeasure = \"value\"\nsymbol = \"AAPL\"\nabove = 1")
            + GoldenCase.rule("id = \"h\"\nportfolio = \"retirement\"\nmeasure = \"value\"\nbelow = -1")
            + GoldenCase.rule("id = \"i\"\nsymbol = \"AAPL\"\nmeasure = \"value\"\nabove = 1")
            + GoldenCase.rule("id = \"j\"\nportfolio = \"retirement\"\nmeasure = \"value\"\nposition = \"AAPL\"\nabove = 1")
        let (rendered, configuration, fixture) = try Self.run(rules)
        defer { fixture.remove() }
        #expect(configuration == nil)
        #expect(rendered == [
            "$DIR/rules.d/a.toml:3:1: error: rule 'a': portfolio: no portfolio 'pension' in portfolios.d; portfolios: retirement",
            "$DIR/rules.d/a.toml:9:1: error: rule 'b': measure: expected 'value', 'profit', 'profit_percent', 'day_change_percent', "
                + "'position_profit_percent' or 'position_weight', found \"valeu\"; did you mean 'value'?",
            "$DIR/rules.d/a.toml:11:1: error: rule 'c': missing required key 'measure'; a portfolio rule needs one of 'value', 'profit', "
                + "'profit_percent', 'day_change_percent', 'position_profit_percent' or 'position_weight'",
            "$DIR/rules.d/a.toml:19:1: error: rule 'd': a portfolio rule compares its measure with a level: expected 'above', 'below' or "
                + "'crosses', found 'fall' (for a day's move, use measure = \"day_change_percent\")",
            "$DIR/rules.d/a.toml:20:1: error: rule 'e': missing required key 'position'; measure 'position_weight' needs the symbol of a position",
            "$DIR/rules.d/a.toml:29:1: error: rule 'f': position: portfolio 'retirement' holds no 'MSFT'; it holds 'AAPL'",
            "$DIR/rules.d/a.toml:35:1: error: rule 'g': 'symbol' does not apply to a portfolio rule (it watches portfolio 'retirement', "
                + "valued from its holdings' prices)",
            "$DIR/rules.d/a.toml:41:1: error: rule 'h': below: expected a level greater than 0 for measure 'value', found -1",
            "$DIR/rules.d/a.toml:45:1: error: rule 'i': 'measure' applies only to portfolio rules (with 'portfolio = \"NAME\"')",
            "$DIR/rules.d/a.toml:51:1: error: rule 'j': 'position' applies only to measures 'position_profit_percent' and "
                + "'position_weight', not to 'value'",
        ])
    }

    /// Under systemd the unit hands `portfolios.d` over as credentials (`portfolios_NAME.toml`):
    /// those copies are read, and diagnostics still name the file in `portfolios.d`.
    @Test func theCredentialCopiesAreReadUnderSystemd() throws {
        let rules = GoldenCase.rule("id = \"low\"\nportfolio = \"pension\"\nmeasure = \"value\"\nbelow = 1")
        let credentials = FileManager.default.temporaryDirectory.appendingPathComponent("pricewatch-credentials-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: credentials) }
        try Self.portfolio.write(toFile: credentials + "/portfolios_pension.toml", atomically: true, encoding: .utf8)
        try "currency = 5\n".write(toFile: credentials + "/portfolios_broken.toml", atomically: true, encoding: .utf8)
        try "secret\n".write(toFile: credentials + "/smtp-password", atomically: true, encoding: .utf8)
        let (rendered, configuration, fixture) = try Self.run(rules, environment: ["CREDENTIALS_DIRECTORY": credentials])
        defer { fixture.remove() }
        #expect(configuration == nil)
        #expect(rendered == [#"$DIR/portfolios.d/broken.toml:1:1: error: currency: expected a three-letter currency code such as "USD", found an integer"#])
        try FileManager.default.removeItem(atPath: credentials + "/portfolios_broken.toml")
        let (again, loaded, second) = try Self.run(rules, environment: ["CREDENTIALS_DIRECTORY": credentials])
        defer { second.remove() }
        #expect(again == [])
        #expect(loaded?.portfolios.map(\.name) == ["pension"], "the copies, not the directory's retirement.toml")
    }
}
