import PriceWatchCore
import PriceWatchPresentation
@testable import PriceWatchHTTP
import Testing

/// The dashboard's rules table shows a technical rule as `pricewatch rules` does: warming up
/// with its bars counted, then its series' values under the condition.
struct DashboardTechnicalRuleTests {
    static func status(bars: Int) throws -> RuleStatus {
        let condition = SeriesCondition(timeframe: .oneDay, of: try SeriesSpec(parsing: "sma(2)"), level: try SeriesSpec(parsing: "sma(3)"))
        let history = (0..<bars).map { BarHistory.Bar(start: Int64($0), time: Timestamp(seconds: Int64($0)), close: ExactDecimal(exactly: 10 + $0) ?? .zero) }
        var status = RuleStatus(rule: "golden", symbol: "GOOG", provider: "yahoo", condition: "sma(2) crosses sma(3) on 1d bars",
                                state: .armed, lastPrice: nil, lastAlert: nil)
        status.series = SeriesSnapshot(condition: condition, bars: history)
        return status
    }

    @Test func aTechnicalRuleShowsItsWarmUpThenItsValues() async throws {
        let warming = DashboardPage.sections(DashboardSnapshot(rules: [try Self.status(bars: 1)], now: Timestamp(seconds: 0)), live: LiveQuotes())
        #expect(warming.contains(">warming up: 1 of 3 bars</td>"), "\(warming)")
        let ready = DashboardPage.sections(DashboardSnapshot(rules: [try Self.status(bars: 4)], now: Timestamp(seconds: 0)), live: LiveQuotes())
        #expect(ready.contains("sma(2) crosses sma(3) on 1d bars<br><span class=\"muted\">sma(2) 12.50, sma(3) 12.00</span>"), "\(ready)")
        #expect(ready.contains(">armed</td>"))
    }
}
