/// How the positions held now did over a report's period (docs/portfolios.md, "Performance
/// reports"): each position's price at the period's start against its price now, the change
/// in the home currency at today's rate, and the best and worst position by percent.
///
/// It measures the holdings, not the money: a position bought during the period counts as if
/// held all period, and cash does not move. Pure: the prices and rates are given.
public struct PeriodPerformance: Sendable, Hashable {
    /// One position over the period.
    public struct Line: Sendable, Hashable {
        public var symbol: String
        /// The price at the period's start and now, in the quote's own unit (GBp stays pence).
        public var startPrice: ExactDecimal
        public var endPrice: ExactDecimal
        /// `end / start − 1`, in percent, half-even to 8 digits.
        public var percent: ExactDecimal
        /// quantity × (end − start), in the home currency.
        public var homeChange: ExactDecimal
    }

    /// A position to measure: what is held, its quote unit's divisor and its rate to home.
    public struct Holding: Sendable, Hashable {
        public var symbol: String
        public var quantity: ExactDecimal
        /// 100 for a quote in a minor unit (GBp), else 1.
        public var divisor: Int
        /// The position's currency to the home currency (1 for the home currency).
        public var rate: ExactDecimal

        public init(symbol: String, quantity: ExactDecimal, divisor: Int = 1, rate: ExactDecimal) {
            self.symbol = symbol
            self.quantity = quantity
            self.divisor = divisor
            self.rate = rate
        }
    }

    /// The positions with a price at both ends, in the order given.
    public var lines: [Line]
    /// The sum of the lines' home changes.
    public var totalChange: ExactDecimal
    /// What the measured positions were worth at the period's start, in the home currency.
    public var startValue: ExactDecimal
    /// The positions without a price at the period's start or now (left out of the total).
    public var unmeasured: [String]

    /// Measures `holdings` between `start` and `end` prices (by symbol).
    public static func measure(_ holdings: [Holding], start: [String: ExactDecimal], end: [String: ExactDecimal]) -> PeriodPerformance {
        var lines: [Line] = []
        var unmeasured: [String] = []
        var total = ExactDecimal.zero
        var startValue = ExactDecimal.zero
        for holding in holdings where holding.quantity.scaled != 0 {
            guard let first = start[holding.symbol], let last = end[holding.symbol], first.scaled > 0,
                  let difference = last.subtracting(first),
                  let units = holding.quantity.multiplied(by: difference)?.divided(byInteger: holding.divisor),
                  let home = units.multiplied(by: holding.rate),
                  let percent = difference.percent(of: first) else {
                unmeasured.append(holding.symbol)
                continue
            }
            lines.append(Line(symbol: holding.symbol, startPrice: first, endPrice: last, percent: percent, homeChange: home))
            total = total.adding(home) ?? total
            let worth = holding.quantity.multiplied(by: first)?.divided(byInteger: holding.divisor)?.multiplied(by: holding.rate)
            startValue = startValue.adding(worth ?? .zero) ?? startValue
        }
        return PeriodPerformance(lines: lines, totalChange: total, startValue: startValue, unmeasured: unmeasured)
    }

    /// `totalChange / startValue` in percent; nil without a start value.
    public var totalPercent: ExactDecimal? { totalChange.percent(of: startValue) }

    /// The position that rose most (by percent; the first of equals).
    public var best: Line? { lines.max { $0.percent < $1.percent } }
    /// The position that fell most (by percent; the first of equals).
    public var worst: Line? { lines.min { $0.percent < $1.percent } }
}
