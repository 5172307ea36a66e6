import PriceWatchCore
import PriceWatchPresentation
import Testing

/// A portfolio valuation as text: what is left out of the totals is said, with its reason.
@Suite struct PortfolioRenderingTests {
    @Test func aPositionLeftOutOfTheTotalsIsNamedWithItsReason() {
        let now = Timestamp(seconds: 1_727_899_200) // 2024-10-02T20:00:00Z
        let portfolio = Portfolio(name: "one", currency: "EUR", cash: ["EUR": dec("1000")], lots: [
            PortfolioLot(symbol: "SAP.DE", quantity: dec("20"), price: dec("120"), currency: "EUR",
                         date: CivilDate(parsing: "2023-09-01") ?? CivilDate(dayNumber: 0), fees: dec("2")),
        ])
        let prices: [String: PortfolioValuation.Price] = [
            "SAP.DE": .init(price: dec("180.50"), previousClose: dec("181"), currency: "EUR", time: Timestamp(seconds: now.seconds - 86_400),
                            provider: "yahoo"),
        ]
        let valuation = PortfolioValuation.value(portfolio, prices: prices, now: now, staleAfterMilliseconds: 3_600_000) { _, _ in nil }
        let text = PortfolioRendering.text(valuation)
        #expect(text.contains("not in the totals: SAP.DE: stale price of 2024-10-01T20:00:00Z (yahoo)"), "\(text)")
    }
}
