/// One day's recorded value of a portfolio: its total value and cost in its home currency at
/// the day's latest valuation (``PortfolioValuation``, the figures of `pricewatch portfolio`).
/// The daemon records one an hour, replacing the day's, so each day keeps its last: the
/// portfolio page's value over time.
public struct PortfolioValuePoint: Sendable, Hashable {
    public var portfolio: String
    /// The UTC day it is the value of, `YYYY-MM-DD`.
    public var day: String
    /// When it was valued.
    public var time: Timestamp
    public var currency: String
    public var value: ExactDecimal
    public var cost: ExactDecimal

    public init(portfolio: String, day: String, time: Timestamp, currency: String, value: ExactDecimal, cost: ExactDecimal) {
        self.portfolio = portfolio
        self.day = day
        self.time = time
        self.currency = currency
        self.value = value
        self.cost = cost
    }
}
