/// What a portfolio rule watches (`portfolio = "NAME"`, `measure`, `position`): one figure of
/// one portfolio's valuation, evaluated like a price (docs/portfolios.md, "Portfolio rules").
public struct PortfolioTarget: Sendable, Hashable {
    /// The figure a portfolio rule compares with its level.
    public enum Measure: String, Sendable, Hashable, CaseIterable {
        /// The total value in the home currency (positions and cash).
        case value
        /// The total unrealised profit (or loss, negative) in the home currency.
        case profit
        /// The total unrealised profit in percent of the total cost.
        case profitPercent = "profit_percent"
        /// The day change of the positions in percent of their value at the previous close.
        case dayChangePercent = "day_change_percent"
        /// One position's unrealised profit in percent of its cost.
        case positionProfitPercent = "position_profit_percent"
        /// One position's share of the total value, in percent.
        case positionWeight = "position_weight"

        /// Whether the measure is about one position (`position` is required).
        public var needsPosition: Bool { self == .positionProfitPercent || self == .positionWeight }

        /// Whether the figure is in the home currency (otherwise it is a percent).
        public var isMoney: Bool { self == .value || self == .profit }

        /// Whether the figure can be zero or negative (a level of 0 or below makes sense).
        public var allowsNonPositiveLevel: Bool { self != .value && self != .positionWeight }
    }

    /// The portfolio's name (its file name without `.toml`).
    public var portfolio: String
    public var measure: Measure
    /// The position's symbol, for the position measures.
    public var position: String?

    public init(portfolio: String, measure: Measure, position: String? = nil) {
        self.portfolio = portfolio
        self.measure = measure
        self.position = position
    }

    /// What stands in for a symbol in the rule's state, alerts and logs: `@NAME:MEASURE` or
    /// `@NAME/SYMBOL:MEASURE` (`@retirement:value`, `@retirement/AAPL:position_weight`). Each
    /// figure is its own time line, like a symbol. `@` starts no provider's symbol, so the two
    /// never meet.
    public var subject: String {
        guard let position else { return "@\(portfolio):\(measure.rawValue)" }
        return "@\(portfolio)/\(position):\(measure.rawValue)"
    }

    /// `value`, `profit percent`, `AAPL weight`: how alerts name the figure.
    public var label: String {
        switch measure {
        case .value: "value"
        case .profit: "profit"
        case .profitPercent: "profit %"
        case .dayChangePercent: "day change %"
        case .positionProfitPercent: "\(position ?? "position") profit %"
        case .positionWeight: "\(position ?? "position") weight %"
        }
    }

    /// The figure in `valuation`; nil when the valuation leaves out something the figure
    /// depends on (a stale or missing price or rate, a position not held, no cost): a rule is
    /// never evaluated on a partial total.
    public func figure(in valuation: PortfolioValuation) -> ExactDecimal? {
        if !valuation.isComplete { return nil }
        switch measure {
        case .value:
            return valuation.totalValue
        case .profit:
            return valuation.totalUnrealised
        case .profitPercent:
            return valuation.totalUnrealised.percent(of: valuation.totalCost)
        case .dayChangePercent:
            // The positions' value at the previous close is today's value less today's change.
            let invested = valuation.positions.reduce(ExactDecimal.zero) { $0.adding($1.homeValue ?? .zero) ?? $0 }
            guard let before = invested.subtracting(valuation.totalDayChange) else { return nil }
            return valuation.totalDayChange.percent(of: before)
        case .positionProfitPercent:
            guard let held = valuation.positions.first(where: { $0.symbol == position }), held.quantity.scaled != 0,
                  let unrealised = held.unrealised else { return nil }
            return unrealised.percent(of: held.cost)
        case .positionWeight:
            guard let held = valuation.positions.first(where: { $0.symbol == position }), held.quantity.scaled != 0,
                  let homeValue = held.homeValue else { return nil }
            return homeValue.percent(of: valuation.totalValue)
        }
    }

}

extension ExactDecimal {
    /// `self / whole * 100`, half-even to 8 digits; nil for a whole of zero or below.
    public func percent(of whole: ExactDecimal) -> ExactDecimal? {
        guard whole.scaled > 0 else { return nil }
        return ExactDecimal.roundedHalfEven(Int128(scaled) * 100 * Int128(ExactDecimal.unit), dividedBy: Int128(whole.scaled))
    }
}

extension PortfolioValuation {
    /// Why the valuation is not whole, naming the first held position or cash balance left out
    /// of the totals (`AAPL: no rate from USD to EUR`); nil when nothing is.
    public var firstExclusion: String? {
        if let position = positions.first(where: { $0.excluded != nil && $0.quantity.scaled != 0 }) {
            return "\(position.symbol): \(position.excluded ?? "")"
        }
        if let balance = cash.first(where: { $0.excluded != nil }) {
            return "cash in \(balance.currency): \(balance.excluded ?? "")"
        }
        return nil
    }

    /// Whether every held position and every cash balance is in the totals (none stale, none
    /// without a price or a rate).
    public var isComplete: Bool { firstExclusion == nil }
}
