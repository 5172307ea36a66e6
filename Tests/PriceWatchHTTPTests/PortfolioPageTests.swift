import PriceWatchCore
import PriceWatchPresentation
@testable import PriceWatchHTTP
import Testing

/// The portfolio page (issue 26): a position in another currency than the portfolio's shows
/// its P&L in both; the lots of the portfolio file are listed, sales marked.
struct PortfolioPageTests {
    static func decimal(_ text: String) -> ExactDecimal {
        guard let value = try? ExactDecimal(parsing: text) else { preconditionFailure("bad decimal in a test") }
        return value
    }

    @Test func aForeignPositionShowsItsProfitInBothCurrenciesAndItsLots() throws {
        let bought = try #require(CivilDate(parsing: "2024-01-02")), sold = try #require(CivilDate(parsing: "2024-06-03"))
        let lots = [PortfolioLot(symbol: "AAPL", quantity: Self.decimal("10"), price: Self.decimal("150"), currency: "USD", date: bought,
                                 fees: Self.decimal("1")),
                    PortfolioLot(symbol: "AAPL", quantity: Self.decimal("-2"), price: Self.decimal("190"), currency: "USD", date: sold)]
        let portfolio = Portfolio(name: "core", currency: "EUR", cash: [:], lots: lots)
        let now = Timestamp(seconds: 1_727_881_200)
        let valuation = PortfolioValuation.value(portfolio, prices: ["AAPL": .init(price: Self.decimal("200"), previousClose: Self.decimal("198"),
                                                                                   currency: "USD", time: now, provider: "p")],
                                                 now: now, staleAfterMilliseconds: 3_600_000, rate: { from, to in
            from == "USD" && to == "EUR" ? ExchangeRate(base: "USD", quote: "EUR", rate: Self.decimal("0.9"), time: now, source: "test") : nil
        })
        let page = PortfolioPage.page(.valued([valuation], lots: ["core": lots]), name: "core")
        #expect(page.status == 200)
        let position = try #require(valuation.positions.first)
        let unrealised = try #require(position.unrealised), homeUnrealised = try #require(position.homeUnrealised)
        #expect(page.html.contains(PortfolioRendering.money(unrealised, "USD") + " <span class=\"muted\">"
                                   + PortfolioRendering.money(homeUnrealised, "EUR") + " EUR</span>"), "\(page.html)")
        #expect(page.html.contains("<details class=\"lots\"><summary>2 lots</summary>"))
        #expect(page.html.contains("<tr><td>AAPL</td><td><time datetime=\"2024-06-03\">2024-06-03</time></td><td>-2 (sale)</td>"), "\(page.html)")
        #expect(!page.html.contains("not drawn yet"), "the value over time is drawn since the daemon records it")
    }

    /// The symbol page's holdings list the portfolio's lots of the symbol (issue 26, item 2).
    @Test func theSymbolPageListsAHoldingsLots() throws {
        let day = try #require(CivilDate(parsing: "2024-01-02"))
        let lots = [PortfolioLot(symbol: "AAPL", quantity: Self.decimal("10"), price: Self.decimal("150"), currency: "USD", date: day),
                    PortfolioLot(symbol: "AAPL", quantity: Self.decimal("5"), price: Self.decimal("160"), currency: "USD", date: day)]
        let portfolio = Portfolio(name: "core", currency: "USD", lots: lots)
        let now = Timestamp(seconds: 1_727_881_200)
        let valuation = PortfolioValuation.value(portfolio, prices: ["AAPL": .init(price: Self.decimal("200"), currency: "USD", time: now,
                                                                                   provider: "p")],
                                                 now: now, staleAfterMilliseconds: 3_600_000, rate: { _, _ in nil })
        let position = try #require(valuation.positions.first)
        let html = SymbolPage.holdingsSection(DashboardHoldings(portfolios: [.init(portfolio: "core", position: position, lots: lots)]))
        #expect(html.contains("<details class=\"lots\"><summary>2 lots in core</summary>"), "\(html)")
        #expect(html.contains("<td>160.00</td>"))
    }
}
