/// Builds a paper account's daily equity (cash plus positions at the day's last known price)
/// from its ledger and the price history: pure, so the history command and its tests agree.
public enum PaperEquitySeries {
    /// One symbol's prices, oldest first.
    public typealias PriceHistory = [(time: Timestamp, price: ExactDecimal)]

    /// The equity at the end of every day from the account's opening day to `today`, with the
    /// opening deposit as the flow of its day. A position is valued at its symbol's last price
    /// at or before the day's end (`latest` overrides it on `today`), else at its net cost.
    public static func build(account: PaperAccount, postings: [PaperPosting], history: [String: PriceHistory],
                             latest: [String: ExactDecimal], today: PaperDay) -> [PaperReturns.EquityPoint] {
        let openDay = PaperDay(account.openedAt)
        guard openDay <= today else { return [] }
        let sorted = postings.sorted { $0.time < $1.time }
        var next = 0
        var book = PaperBook()
        var points: [PaperReturns.EquityPoint] = []
        points.reserveCapacity(Int(openDay.distance(to: today)) + 1)
        var priceIndex: [String: Int] = [:]
        var prices: [String: ExactDecimal] = [:]
        for day in openDay...today {
            let end = day.end
            var flow = ExactDecimal.zero
            while next < sorted.count, sorted[next].time < end {
                let posting = sorted[next]
                if posting.ledger == .equity { flow = ExactDecimal(scaled: flow.scaled &- posting.amount.scaled) }
                book.apply(posting)
                next += 1
            }
            for (symbol, series) in history {
                var index = priceIndex[symbol] ?? 0
                while index < series.count, series[index].time < end {
                    prices[symbol] = series[index].price
                    index += 1
                }
                priceIndex[symbol] = index
            }
            var dayPrices = prices
            if day == today { dayPrices.merge(latest) { _, new in new } }
            let equity = book.valuation(prices: dayPrices)?.equity ?? book.cash
            points.append(PaperReturns.EquityPoint(day: day, equity: equity, flow: flow))
        }
        // Postings after `today` (a clock behind the ledger) still count on the last day.
        if next < sorted.count, var last = points.popLast() {
            for posting in sorted[next...] {
                if posting.ledger == .equity { last.flow = ExactDecimal(scaled: last.flow.scaled &- posting.amount.scaled) }
                book.apply(posting)
            }
            var dayPrices = prices
            dayPrices.merge(latest) { _, new in new }
            last.equity = book.valuation(prices: dayPrices)?.equity ?? book.cash
            points.append(last)
        }
        return points
    }
}
