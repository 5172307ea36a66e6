import PriceWatchCore
import PriceWatchServices
import PriceWatchStore

/// Records each portfolio's value once an hour (``PortfolioValuePoint``, one per portfolio and
/// UTC day, the day's last kept): the portfolio page's value over time. The valuation is
/// `pricewatch portfolio`'s at the latest recorded prices and currency pairs; a valuation that
/// leaves a position out of its totals (a stale price, no rate) is not recorded, so the line
/// never dips for a price the daemon lacked. A failure is the job's own (logged and recorded
/// by the scheduler).
struct PortfolioValueRecorder {
    static let name = "portfolio-values"
    static let schedule = CalendarSchedule(.hourly(minute: 0))

    /// The running configuration's portfolios and `stale_after`.
    let configuration: @Sendable () async -> Configuration
    let store: SQLiteAlertStore
    let marketHours: any MarketHours
    let wallClock: @Sendable () -> Timestamp

    var job: ScheduledJob {
        ScheduledJob(name: Self.name, schedule: Self.schedule, grace: nil) { _ in try await record(at: wallClock()) }
    }

    /// Values every portfolio at `now` and records the complete valuations; returns how many.
    @discardableResult
    func record(at now: Timestamp) async throws -> Int {
        let running = await configuration()
        guard !running.portfolios.isEmpty else { return 0 }
        let recorded = RecordedPrices(try await store.latestQuoteDetails())
        let freshness = PriceFreshness(staleAfterMilliseconds: running.staleAfter.seconds &* 1000, hours: marketHours)
        let day = String(now.rfc3339.prefix(10))
        var count = 0
        for portfolio in running.portfolios {
            let valuation = PortfolioValuation.value(portfolio, prices: recorded.prices, now: now, isStale: { symbol, price in
                freshness.isStale(symbol: symbol, time: price.time, now: now)
            }, rate: { from, to in recorded.rates.convert(from: from, to: to, at: now) })
            let complete = valuation.positions.allSatisfy { $0.excluded == nil || $0.quantity.scaled == 0 }
                && valuation.cash.allSatisfy { $0.excluded == nil }
            guard complete else { continue }
            try await store.recordPortfolioValue(PortfolioValuePoint(portfolio: portfolio.name, day: day, time: now,
                                                                     currency: valuation.currency, value: valuation.totalValue,
                                                                     cost: valuation.totalCost))
            count += 1
        }
        return count
    }
}
