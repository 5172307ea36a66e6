import Foundation
import PriceWatchCore
import Testing

/// Valuation against an independent computation (Foundation's `Decimal`, written here from the
/// definitions, not from the valuation code): mixed currencies, a minor-unit quote (GBp), fees,
/// a partial sale at average cost; it agrees to the cent. Stale prices and missing rates are
/// left out of the totals with a note.
@Suite struct PortfolioValuationTests {
    static func decimal(_ text: String) -> ExactDecimal { ExactDecimal(text) ?? .zero }
    static func date(_ text: String) -> CivilDate { CivilDate(parsing: text) ?? CivilDate(dayNumber: 0) }
    static let now = Timestamp(seconds: 1_727_899_200) // 2024-10-02T20:00:00Z

    static let portfolio = Portfolio(name: "mixed", currency: "EUR", cash: ["EUR": decimal("1000"), "USD": decimal("110")], lots: [
        PortfolioLot(symbol: "AAPL", quantity: decimal("10"), price: decimal("150.25"), currency: "USD", date: date("2023-05-02"), fees: decimal("1.50")),
        PortfolioLot(symbol: "VOD.L", quantity: decimal("1000"), price: decimal("0.70"), currency: "GBP", date: date("2023-06-01"), fees: decimal("5")),
        PortfolioLot(symbol: "AAPL", quantity: decimal("5"), price: decimal("170"), currency: "USD", date: date("2023-08-01"), fees: decimal("1")),
        PortfolioLot(symbol: "SAP.DE", quantity: decimal("20"), price: decimal("120"), currency: "EUR", date: date("2023-09-01"), fees: decimal("2")),
        PortfolioLot(symbol: "AAPL", quantity: decimal("-4"), price: decimal("190"), currency: "USD", date: date("2024-02-01"), fees: decimal("1.50")),
    ])

    static let prices: [String: PortfolioValuation.Price] = [
        "AAPL": .init(price: decimal("226.78"), previousClose: decimal("225"), currency: "USD", time: Timestamp(seconds: now.seconds - 60), provider: "yahoo"),
        "VOD.L": .init(price: decimal("72.50"), previousClose: decimal("71"), currency: "GBp", time: Timestamp(seconds: now.seconds - 60), provider: "yahoo"),
        "SAP.DE": .init(price: decimal("180.50"), previousClose: decimal("181"), currency: "EUR", time: Timestamp(seconds: now.seconds - 60), provider: "yahoo"),
    ]

    static let book = ExchangeRateBook([
        ExchangeRate(base: "EUR", quote: "USD", rate: decimal("1.10"), time: Timestamp(seconds: now.seconds - 3600), source: "ecb"),
        ExchangeRate(base: "EUR", quote: "GBP", rate: decimal("0.85"), time: Timestamp(seconds: now.seconds - 3600), source: "ecb"),
    ])

    static func cents(_ value: Decimal) -> Decimal {
        var input = value, output = Decimal()
        NSDecimalRound(&output, &input, 2, .bankers)
        return output
    }

    static func cents(_ value: ExactDecimal?) -> Decimal {
        cents(Decimal(string: value?.description ?? "") ?? .nan)
    }

    @Test func agreesToTheCentWithAnIndependentComputation() {
        let valuation = PortfolioValuation.value(Self.portfolio, prices: Self.prices, now: Self.now, staleAfterMilliseconds: 3_600_000) {
            Self.book.convert(from: $0, to: $1, at: Self.now)
        }
        // Independent: average cost. AAPL: 10 @ 150.25 + 1.50 fee, 5 @ 170 + 1, then 4 sold @ 190 - 1.50.
        let usdToEUR = Decimal(1) / Decimal(string: "1.10")!, gbpToEUR = Decimal(1) / Decimal(string: "0.85")!
        let aaplCostBefore = Decimal(10) * Decimal(string: "150.25")! + Decimal(string: "1.50")! + Decimal(5) * 170 + 1
        let average = aaplCostBefore / 15
        let aaplRealised = Decimal(4) * 190 - Decimal(string: "1.50")! - Decimal(4) * average
        let aaplCost = aaplCostBefore - Decimal(4) * average
        let aaplValue = Decimal(11) * Decimal(string: "226.78")!
        let vodValue = Decimal(1000) * Decimal(string: "0.725")!          // 72.50 GBp = 0.725 GBP
        let vodCost = Decimal(1000) * Decimal(string: "0.70")! + 5
        let sapValue = Decimal(20) * Decimal(string: "180.50")!
        let sapCost = Decimal(20) * 120 + 2
        let cash = Decimal(1000) + Decimal(110) * usdToEUR
        let totalValue = aaplValue * usdToEUR + vodValue * gbpToEUR + sapValue + cash
        let totalUnrealised = (aaplValue - aaplCost) * usdToEUR + (vodValue - vodCost) * gbpToEUR + (sapValue - sapCost)
        let dayChange = Decimal(11) * Decimal(string: "1.78")! * usdToEUR + Decimal(1000) * Decimal(string: "0.015")! * gbpToEUR
            + Decimal(20) * Decimal(string: "-0.50")!

        let aapl = valuation.positions.first { $0.symbol == "AAPL" }
        #expect(Self.cents(aapl?.cost) == Self.cents(aaplCost))
        #expect(Self.cents(aapl?.realised) == Self.cents(aaplRealised))
        #expect(Self.cents(aapl?.value) == Self.cents(aaplValue))
        #expect(aapl?.quantity == Self.decimal("11"))
        #expect(Self.cents(valuation.positions.first { $0.symbol == "VOD.L" }?.value) == Self.cents(vodValue), "GBp divided by 100")
        #expect(Self.cents(valuation.totalValue) == Self.cents(totalValue))
        #expect(Self.cents(valuation.totalUnrealised) == Self.cents(totalUnrealised))
        #expect(Self.cents(valuation.totalDayChange) == Self.cents(dayChange))
        #expect(Self.cents(valuation.totalRealised) == Self.cents(aaplRealised * usdToEUR))
        #expect(valuation.positions.allSatisfy { $0.excluded == nil })
        let weights = valuation.positions.compactMap(\.weight).reduce(0, +) + (cash as NSDecimalNumber).doubleValue / (totalValue as NSDecimalNumber).doubleValue
        #expect(abs(weights - 1) < 1e-6, "positions and cash make the whole")
    }

    @Test func aStalePriceAndAMissingRateAreLeftOutWithANote() {
        var prices = Self.prices
        prices["SAP.DE"]?.time = Timestamp(seconds: Self.now.seconds - 86_400)
        let valuation = PortfolioValuation.value(Self.portfolio, prices: prices, now: Self.now, staleAfterMilliseconds: 3_600_000) { _, _ in nil }
        let notes = Dictionary(uniqueKeysWithValues: valuation.positions.map { ($0.symbol, $0.excluded ?? "") })
        #expect(notes["SAP.DE"] == "stale price of 2024-10-01T20:00:00Z (yahoo)")
        #expect(notes["AAPL"] == "no rate from USD to EUR")
        #expect(notes["VOD.L"] == "no rate from GBP to EUR")
        #expect(valuation.totalValue == Self.decimal("1000"), "only the euro cash could be valued")
        let oldRates = ExchangeRateBook([ExchangeRate(base: "EUR", quote: "USD", rate: Self.decimal("1.10"),
                                                      time: Timestamp(seconds: Self.now.seconds - 5 * 86_400), source: "ecb")])
        let staleRate = PortfolioValuation.value(Self.portfolio, prices: Self.prices, now: Self.now, staleAfterMilliseconds: 3_600_000) {
            oldRates.convert(from: $0, to: $1, at: Self.now)
        }
        #expect(staleRate.positions.first { $0.symbol == "AAPL" }?.excluded == "stale rate of 2024-09-27T20:00:00Z (ecb)")
        #expect(staleRate.cash.first { $0.currency == "USD" }?.excluded == "stale rate of 2024-09-27T20:00:00Z (ecb)")
    }
}
