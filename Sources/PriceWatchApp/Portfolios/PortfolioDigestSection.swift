import PriceWatchConfig
import PriceWatchCore
import PriceWatchPresentation
import PriceWatchServices
import PriceWatchStore

/// The portfolios in a digest, a performance report for each (docs/portfolios.md,
/// "Performance reports"): value, unrealised profit and day change in the home currency at the
/// latest recorded prices and currency pairs, then the period's change of the positions held
/// and the best and worst of them. The digest's `portfolios` chooses which (all by default);
/// nothing when there is none.
struct PortfolioDigestSection: DigestSection {
    /// The configuration's portfolios (the daemon's current ones: they follow a reload).
    let portfolios: @Sendable () async -> [Portfolio]
    let store: SQLiteAlertStore

    func content(for window: Range<Timestamp>, settings: DigestSettings) async throws -> DigestSectionContent? {
        let all = await portfolios()
        let chosen = settings.portfolios.map { names in names.compactMap { name in all.first { $0.name == name } } } ?? all
        guard !chosen.isEmpty else { return nil }
        let recorded = RecordedPrices(try await store.latestQuoteDetails())
        let prices = recorded.prices
        let now = window.upperBound
        let period = window.upperBound.milliseconds - window.lowerBound.milliseconds
        let book = recorded.rates
        var lines: [String] = []
        for portfolio in chosen {
            let valuation = PortfolioValuation.value(portfolio, prices: prices, now: now, staleAfterMilliseconds: period) { from, to in
                book.convert(from: from, to: to, at: now)
            }
            let home = valuation.currency
            let left = valuation.positions.filter { $0.excluded != nil && $0.quantity.scaled != 0 }.count
            lines.append("\(portfolio.name): value \(PortfolioRendering.money(valuation.totalValue, home)) \(home), "
                + "unrealised \(PortfolioRendering.money(valuation.totalUnrealised, home)), day \(PortfolioRendering.money(valuation.totalDayChange, home))"
                + (left == 0 ? "" : " (\(left) positions not valued: see pricewatch portfolio)"))
            var holdings: [(PeriodPerformance.Holding, price: ExactDecimal?)] = []
            for position in valuation.positions where position.excluded == nil && position.quantity.scaled != 0 {
                guard let price = position.price, let rate = position.rate else { continue }
                holdings.append((PeriodPerformance.Holding(symbol: position.symbol, quantity: position.quantity,
                                                           divisor: PortfolioValuation.minorUnits[price.currency ?? ""] != nil ? 100 : 1,
                                                           rate: rate.rate), price.price))
            }
            lines += Self.performanceLines(try await Self.performance(of: holdings, window: window, period: settings.period, store: store),
                                           currency: home, period: settings.period)
        }
        return DigestSectionContent(title: "Portfolios", lines: lines)
    }

    /// The period's lines under a portfolio's or an account's first line.
    static func performanceLines(_ performance: PeriodPerformance, currency: String, period: DigestPeriod) -> [String] {
        guard !performance.lines.isEmpty else { return [] }
        func signed(_ value: ExactDecimal) -> String { (value.scaled >= 0 ? "+" : "") + PortfolioRendering.money(value, currency) }
        func percent(_ value: ExactDecimal?) -> String {
            guard let value else { return "n/a" }
            return (value.scaled >= 0 ? "+" : "") + value.rounded(toFractionDigits: 2).formatted(minimumFractionDigits: 2) + "%"
        }
        var lines = ["  \(period.rawValue): \(signed(performance.totalChange)) \(currency) (\(percent(performance.totalPercent))) on the positions held"]
        if let best = performance.best, let worst = performance.worst {
            var text = "  best \(best.symbol) \(percent(best.percent)) (\(signed(best.homeChange)) \(currency))"
            if performance.lines.count > 1 { text += ", worst \(worst.symbol) \(percent(worst.percent)) (\(signed(worst.homeChange)) \(currency))" }
            lines.append(text)
        }
        if !performance.unmeasured.isEmpty {
            lines.append("  no price at the \(period.rawValue)'s start: " + performance.unmeasured.joined(separator: ", "))
        }
        return lines
    }

    /// How `holdings` (each with its latest price, when it has one) did over the period `window` of length
    /// `period`: from each one's last recorded close before the period (within
    /// ``DigestBuilder/lookBack``, in the candles the period is measured in) to that price.
    static func performance(of holdings: [(PeriodPerformance.Holding, price: ExactDecimal?)], window: Range<Timestamp>,
                            period: DigestPeriod, store: SQLiteAlertStore) async throws -> PeriodPerformance {
        var start: [String: ExactDecimal] = [:]
        var end: [String: ExactDecimal] = [:]
        for (holding, price) in holdings {
            end[holding.symbol] = price
            start[holding.symbol] = try await store.candles(
                symbol: holding.symbol, interval: DigestBuilder.interval(for: period),
                from: Timestamp(milliseconds: window.lowerBound.milliseconds - DigestBuilder.lookBack), to: window.lowerBound).last?.close
        }
        return PeriodPerformance.measure(holdings.map(\.0), start: start, end: end)
    }
}
