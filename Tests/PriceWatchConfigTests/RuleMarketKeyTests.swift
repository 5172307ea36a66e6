import PriceWatchConfig
import PriceWatchCore
import Testing

/// A rule's `market = "XNYS"`: read as a market code, given to market-aware polling per
/// provider and symbol, and refused with a positioned diagnostic when it is not a code.
@Suite struct RuleMarketKeyTests {
    @Test func aWrittenMarketOverridesTheSymbolsMarketForItsProvider() throws {
        let files = ["rules.d/a.toml": GoldenCase.rule("id = \"x\"\nsymbols = [\"AAPL\", \"SAP\"]\nabove = 1\nmarket = \"xnys\"")
            + GoldenCase.rule("id = \"y\"\nsymbol = \"SAP\"\nabove = 1\nmarket = \"XETR\"")
            + GoldenCase.rule("id = \"z\"\nsymbol = \"BTC-USD\"\nabove = 1")]
        let (rendered, configuration, fixture) = try GoldenCase(name: "market", files: files, expected: []).run()
        defer { fixture.remove() }
        #expect(rendered == [])
        let loaded = try #require(configuration)
        #expect(loaded.rules.map(\.market) == [MarketIdentifier("XNYS"), MarketIdentifier("XETR"), nil])
        #expect(loaded.marketOverrides(for: "demo") == ["AAPL": MarketIdentifier("XNYS"), "SAP": MarketIdentifier("XNYS")],
                "the first rule naming a symbol's market wins")
        #expect(loaded.marketOverrides(for: "other") == [:])
    }

    @Test func aMarketThatIsNotACodeIsOneDiagnosticAtItsLine() throws {
        let files = ["rules.d/a.toml": GoldenCase.rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 1\nmarket = \"New York\"")]
        let (rendered, configuration, fixture) = try GoldenCase(name: "bad market", files: files, expected: []).run()
        defer { fixture.remove() }
        #expect(configuration == nil)
        #expect(rendered == ["$DIR/rules.d/a.toml:5:1: error: rule 'x': market: expected a market code such as \"XNYS\", \"XLON\" or \"24/7\" "
                             + "(2 to 12 letters, digits or '/'), found \"New York\""])
    }
}
