import Foundation

/// The returns math of paper accounts, pure: time-weighted return (TWR), money-weighted return
/// (the internal rate of return, IRR, of the period), and maximum drawdown, over a daily equity
/// series. Ratios are `Double` (0.05 is 5%); money stays exact elsewhere.
///
/// Conventions (documented in docs/paper-trading.md):
///
/// - A day's ``EquityPoint/flow`` (money put into the account, such as the opening deposit) is
///   counted at the start of the day: the day's return is `V_d / (V_{d-1} + F_d) - 1`.
/// - TWR links the daily returns geometrically: `prod(1 + r_d) - 1`.
/// - The money-weighted return of a period is the rate `R` for the whole period that makes the
///   net present value of its flows zero: the value at the start of the period (paid in at
///   time 0), each day's flow (paid in at the start of its day), the value at the end (paid out
///   at time 1), with times as fractions of the period. Not annualised.
/// - Maximum drawdown is the largest fall from a peak of the TWR wealth index (so a deposit is
///   not a gain and a withdrawal not a loss), as a positive fraction.
public enum PaperReturns {
    /// The value of the account at the end of one day, and the money put in that day.
    public struct EquityPoint: Sendable, Hashable {
        public var day: PaperDay
        public var equity: ExactDecimal
        public var flow: ExactDecimal

        public init(day: PaperDay, equity: ExactDecimal, flow: ExactDecimal = .zero) {
            self.day = day
            self.equity = equity
            self.flow = flow
        }
    }

    /// The returns of one period.
    public struct PeriodReturns: Sendable, Hashable {
        public var period: PaperPeriod
        public var firstDay: PaperDay
        public var lastDay: PaperDay
        /// Nil when the period has no day with money in the account.
        public var timeWeighted: Double?
        /// Nil when no rate solves it (no money in, or no sign change).
        public var moneyWeighted: Double?
        public var maxDrawdown: Double
    }

    /// The daily returns of `points` (consecutive days, oldest first) after `base`, the value at
    /// the end of the day before the first point (zero when the account opened in the series).
    /// A day that starts with no money (`V_{d-1} + F_d <= 0`) has no return and is skipped.
    public static func dailyReturns(_ points: [EquityPoint], base: Double) -> [Double] {
        var previous = base
        var returns: [Double] = []
        for point in points {
            let invested = previous + point.flow.doubleValue
            let value = point.equity.doubleValue
            if invested > 0 { returns.append(value / invested - 1) }
            previous = value
        }
        return returns
    }

    /// The time-weighted return of `points` after `base`; nil when no day had money in it.
    public static func timeWeighted(_ points: [EquityPoint], base: Double) -> Double? {
        let returns = dailyReturns(points, base: base)
        guard !returns.isEmpty else { return nil }
        return returns.reduce(1.0) { $0 * (1 + $1) } - 1
    }

    /// The largest fall from a peak of the TWR wealth index of `points` after `base`, as a
    /// positive fraction (0 when it never fell).
    public static func maxDrawdown(_ points: [EquityPoint], base: Double) -> Double {
        var index = 1.0
        var peak = 1.0
        var worst = 0.0
        for dailyReturn in dailyReturns(points, base: base) {
            index *= 1 + dailyReturn
            peak = max(peak, index)
            if peak > 0 { worst = max(worst, (peak - index) / peak) }
        }
        return worst
    }

    /// The money-weighted return of `points` after `base` (see the type's conventions).
    public static func moneyWeighted(_ points: [EquityPoint], base: Double) -> Double? {
        guard let last = points.last else { return nil }
        let days = Double(points.count)
        var flows: [(time: Double, amount: Double)] = []
        if base != 0 { flows.append((0, -base)) }
        for (offset, point) in points.enumerated() where point.flow != .zero {
            flows.append((Double(offset) / days, -point.flow.doubleValue))
        }
        flows.append((1, last.equity.doubleValue))
        return internalRate(of: flows)
    }

    /// The rate `r > -1` with `sum(amount * (1 + r)^-time) = 0`, found by Newton's method kept
    /// inside a bracket that bisection narrows (so it always converges once a sign change is
    /// bracketed); nil when the flows are all of one sign, or no root lies between -99.9999%
    /// and +10^9%.
    public static func internalRate(of flows: [(time: Double, amount: Double)]) -> Double? {
        guard flows.contains(where: { $0.amount > 0 }), flows.contains(where: { $0.amount < 0 }) else { return nil }
        func npv(_ rate: Double) -> (value: Double, derivative: Double) {
            var value = 0.0
            var derivative = 0.0
            let growth = 1 + rate
            for flow in flows {
                let discount = pow(growth, -flow.time)
                value += flow.amount * discount
                derivative += -flow.time * flow.amount * discount / growth
            }
            return (value, derivative)
        }
        var low = -0.999999
        var high = 1.0
        var lowValue = npv(low).value
        var highValue = npv(high).value
        while lowValue.sign == highValue.sign, lowValue != 0, highValue != 0 {
            guard high < 1e7 else { return nil }
            high *= 10
            highValue = npv(high).value
        }
        if lowValue == 0 { return low }
        if highValue == 0 { return high }
        var rate = abs(high - 1) < 1e-12 ? 0.0 : (low + high) / 2
        for _ in 0..<300 {
            let (value, derivative) = npv(rate)
            if value == 0 || high - low < 1e-15 { return rate }
            if value.sign == lowValue.sign {
                low = rate
                lowValue = value
            } else {
                high = rate
            }
            var next = derivative != 0 ? rate - value / derivative : .nan
            if !(next > low && next < high) { next = (low + high) / 2 }
            if abs(next - rate) < 1e-13 * max(1, abs(rate)) { return next }
            rate = next
        }
        return rate
    }

    /// The returns of `period` ending on the last point's day, over a complete daily series
    /// (`points`: consecutive days from the account's opening, oldest first).
    public static func returns(for period: PaperPeriod, series points: [EquityPoint]) -> PeriodReturns? {
        guard let last = points.last, let first = points.first else { return nil }
        let firstDay = max(period.firstDay(endingOn: last.day), first.day)
        let inPeriod = points.filter { $0.day >= firstDay }
        let base = points.last(where: { $0.day < firstDay })?.equity.doubleValue ?? 0
        return PeriodReturns(period: period, firstDay: firstDay, lastDay: last.day,
                             timeWeighted: timeWeighted(inPeriod, base: base),
                             moneyWeighted: moneyWeighted(inPeriod, base: base),
                             maxDrawdown: maxDrawdown(inPeriod, base: base))
    }
}
