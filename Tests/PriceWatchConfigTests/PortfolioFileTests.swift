import Foundation
import PriceWatchConfig
import PriceWatchCore
import Testing

/// Portfolio files (`portfolios.d/NAME.toml`): the shipped example reads as written; every
/// mistake is a diagnostic at its line; a file every user may read is warned about.
@Suite struct PortfolioFileTests {
    static func fixture(_ files: [String: String], mode: Int = 0o640) throws -> ConfigFixture {
        var all = files
        all["pricewatch.toml"] = GoldenCase.main
        all["quotes.csv"] = GoldenCase.csv
        let fixture = try ConfigFixture(all)
        for name in files.keys where name.hasPrefix("portfolios.d/") {
            _ = chmod(fixture.path(name), mode_t(mode))
        }
        return fixture
    }

    @Test func theShippedExampleReadsAsWritten() throws {
        let example = try String(contentsOfFile: ExampleConfigurationTests.packageRoot + "/etc/pricewatch/portfolios.d/example.toml.sample",
                                 encoding: .utf8)
        let fixture = try Self.fixture(["portfolios.d/retirement.toml": example])
        defer { fixture.remove() }
        let (portfolios, diagnostics) = PortfolioReader.load(mainFile: fixture.path("pricewatch.toml"))
        #expect(diagnostics.isEmpty, "\(fixture.render(diagnostics))")
        let portfolio = try #require(portfolios.first)
        #expect(portfolio.name == "retirement" && portfolio.currency == "EUR")
        #expect(portfolio.cash == ["EUR": ExactDecimal("1200.50") ?? .zero, "USD": ExactDecimal("300") ?? .zero])
        #expect(portfolio.lots.map(\.quantity) == [ExactDecimal("10"), ExactDecimal("-4")].compactMap { $0 })
        #expect(portfolio.lots.first?.date == CivilDate(year: 2023, month: 5, day: 2))
        #expect(portfolio.lots.first?.fees == ExactDecimal("1.5"))
    }

    @Test func everyMistakeIsADiagnosticAtItsLine() throws {
        let text = """
            currency = "euro"
            colour = "red"

            [cash]
            usd = 5

            [[lot]]
            symbol = "AAPL"
            quantity = 0
            price = -1
            currency = "USD"
            date = "2024-01-01"

            [[lot]]
            symbol = "MSFT"
            """
        let fixture = try Self.fixture(["portfolios.d/bad.toml": text])
        defer { fixture.remove() }
        let (portfolios, diagnostics) = PortfolioReader.load(mainFile: fixture.path("pricewatch.toml"))
        #expect(portfolios.isEmpty)
        #expect(fixture.render(diagnostics) == [
            #"$DIR/portfolios.d/bad.toml:1:1: error: currency: expected a three-letter currency code such as "USD" (GBp and other minor units are written as their major currency), found "euro""#,
            #"$DIR/portfolios.d/bad.toml:2:1: error: unknown key 'colour' (expected one of: currency, cash, lot)"#,
            #"$DIR/portfolios.d/bad.toml:5:1: error: cash.usd: expected a three-letter currency code such as "USD", found "usd""#,
            #"$DIR/portfolios.d/bad.toml:9:1: error: lot #1: quantity: expected a quantity other than 0 (negative for a sale), found 0"#,
            #"$DIR/portfolios.d/bad.toml:10:1: error: lot #1: price: expected a price of 0 or more, found -1"#,
            #"$DIR/portfolios.d/bad.toml:12:1: error: lot #1: date: expected a date such as 2024-10-02, found a string"#,
            #"$DIR/portfolios.d/bad.toml:14:1: error: lot #2: missing 'quantity', 'price', 'currency' and 'date'"#,
        ], "\(fixture.render(diagnostics))")
    }

    @Test func aFileEveryUserMayReadIsWarnedAbout() throws {
        let fixture = try Self.fixture(["portfolios.d/open.toml": "currency = \"USD\"\n"], mode: 0o644)
        defer { fixture.remove() }
        let (portfolios, diagnostics) = PortfolioReader.load(mainFile: fixture.path("pricewatch.toml"))
        #expect(portfolios.count == 1, "a warning, not an error")
        #expect(fixture.render(diagnostics) == [
            "$DIR/portfolios.d/open.toml: warning: the portfolio file is readable by every user (mode 0644); it holds private "
                + "financial data: make it readable by its owner and group only (chmod 640)",
        ])
    }
}
