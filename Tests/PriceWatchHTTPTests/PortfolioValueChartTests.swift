import PriceWatchCore
@testable import PriceWatchHTTP
import Testing

/// The portfolio page's value over time (issue 26): the recorded daily values as a chart
/// against the cost, from three days on; fewer are counted, not drawn; a change of home
/// currency starts the line again.
struct PortfolioValueChartTests {
    static func point(_ day: Int, _ value: Int64, currency: String = "USD") -> PortfolioValuePoint {
        PortfolioValuePoint(portfolio: "core", day: "2026-11-\(10 + day)", time: Timestamp(seconds: 1_794_787_200 + Int64(day) * 86_400),
                            currency: currency, value: ExactDecimal(scaled: value * 100_000_000), cost: ExactDecimal(scaled: 2_000 * 100_000_000))
    }

    @Test func threeDaysOrMoreAreAChartAgainstTheCost() {
        let html = PortfolioPage.valueOverTime("core", values: [Self.point(0, 2_100), Self.point(1, 2_250), Self.point(2, 2_180)])
        #expect(html.contains("<svg class=\"chart chart-light\""))
        #expect(html.contains("core&#39;s value over 3 days, 2026-11-10 to 2026-11-12: from 2100.00 to 2180.00 USD; cost 2000.00."), "\(html)")
        #expect(html.contains(">cost 2000"), "the cost line's label")
    }

    @Test func fewerDaysAreCountedAndAnotherCurrencyStartsAgain() {
        let two = PortfolioPage.valueOverTime("core", values: [Self.point(0, 2_100), Self.point(1, 2_250)])
        #expect(two.contains("value over time: 2 day(s) recorded, a chart from 3"))
        #expect(!two.contains("<svg"))
        let switched = PortfolioPage.valueOverTime("core", values: [Self.point(0, 2_100), Self.point(1, 2_250), Self.point(2, 1_900, currency: "EUR"),
                                                                    Self.point(3, 1_950, currency: "EUR")])
        #expect(switched.contains("value over time: 2 day(s) recorded"), "only the EUR days: \(switched)")
    }
}
