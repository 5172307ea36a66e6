/// A portfolio valued at an instant: each position at its latest price, in the position's
/// currency and in the home currency, with cost, realised and unrealised profit, day change
/// and weight; cash converted; totals over what could be valued. Pure: prices and rates are
/// given. Average cost: a sale takes its share of the cost basis at the average cost of the
/// units held, and its proceeds less its fees minus that share is realised profit.
///
/// Exact decimals with 8 fractional digits throughout; rounding only happens for display. A
/// price older than the stale age, or missing, and a rate that is missing, leave the position
/// out of the totals with a note naming why, never valued with a guess.
public struct PortfolioValuation: Sendable, Hashable {
    /// The latest price of a symbol and where it came from.
    public struct Price: Sendable, Hashable {
        public var price: ExactDecimal
        public var previousClose: ExactDecimal?
        /// As the provider writes it: `USD`, or a minor unit (`GBp`).
        public var currency: String?
        public var time: Timestamp
        public var provider: String

        public init(price: ExactDecimal, previousClose: ExactDecimal? = nil, currency: String?, time: Timestamp, provider: String) {
            self.price = price
            self.previousClose = previousClose
            self.currency = currency
            self.time = time
            self.provider = provider
        }
    }

    public struct Position: Sendable, Hashable {
        public var symbol: String
        /// The lots' currency (major units).
        public var currency: String
        public var quantity: ExactDecimal
        /// What the units held cost, fees included (average cost).
        public var cost: ExactDecimal
        /// Profit of the sales so far, fees included.
        public var realised: ExactDecimal
        public var price: Price?
        /// The price in the lots' currency (a minor-unit quote divided).
        public var unitPrice: ExactDecimal?
        public var value: ExactDecimal?
        public var dayChange: ExactDecimal?
        public var unrealised: ExactDecimal?
        /// `unrealised / cost`; nil without a cost.
        public var unrealisedRatio: Double?
        /// The lots' currency to the home currency.
        public var rate: ExchangeRate?
        public var homeValue: ExactDecimal?
        public var homeUnrealised: ExactDecimal?
        public var homeDayChange: ExactDecimal?
        /// Share of the valued total (positions and cash).
        public var weight: Double?
        /// Why the position is not in the totals (stale or missing price, no rate); nil when it is.
        public var excluded: String?
    }

    public struct Cash: Sendable, Hashable {
        public var currency: String
        public var amount: ExactDecimal
        public var rate: ExchangeRate?
        public var homeAmount: ExactDecimal?
        /// Why the balance is not in the total (no rate, a stale rate); nil when it is.
        public var excluded: String?
    }

    public var name: String
    public var currency: String
    public var time: Timestamp
    public var positions: [Position]
    public var cash: [Cash]
    /// Totals in the home currency over what could be valued.
    public var totalValue: ExactDecimal
    public var totalCost: ExactDecimal
    public var totalUnrealised: ExactDecimal
    public var totalRealised: ExactDecimal
    public var totalDayChange: ExactDecimal

    /// Quote currencies in minor units and their major currency (1/100).
    public static let minorUnits = ["GBp": "GBP", "GBX": "GBP", "ZAc": "ZAR", "ZAC": "ZAR", "ILA": "ILS"]

    /// A rate older than this (reference rates are a business day old at most; a long weekend
    /// makes four days) is stale.
    public static let rateStaleAfterMilliseconds: Int64 = 4 * 86_400_000

    /// Values `portfolio` at `now` with `prices` (by symbol) and `rate` (from a currency to
    /// another, at `now`); a price older than `staleAfterMilliseconds`, or a rate older than
    /// ``rateStaleAfterMilliseconds``, is stale.
    public static func value(_ portfolio: Portfolio, prices: [String: Price], now: Timestamp, staleAfterMilliseconds: Int64,
                             rate: (String, String) -> ExchangeRate?) -> PortfolioValuation {
        value(portfolio, prices: prices, now: now, isStale: { _, price in
            now.milliseconds - price.time.milliseconds > staleAfterMilliseconds
        }, rate: rate)
    }

    /// Values `portfolio` at `now`, asking `isStale` (symbol, price) whether a price is too old
    /// to use (``PriceFreshness`` knows market hours).
    public static func value(_ portfolio: Portfolio, prices: [String: Price], now: Timestamp,
                             isStale: (String, Price) -> Bool,
                             rate: (String, String) -> ExchangeRate?) -> PortfolioValuation {
        func staleness(_ conversion: ExchangeRate?) -> String? {
            guard let conversion, now.milliseconds - conversion.time.milliseconds > rateStaleAfterMilliseconds else { return nil }
            return "stale rate of \(conversion.time.rfc3339) (\(conversion.source))"
        }
        let home = portfolio.currency
        var positions: [Position] = []
        for symbol in portfolio.symbols {
            let lots = portfolio.lots.filter { $0.symbol == symbol }
            let currency = lots.first?.currency ?? home
            var quantity = ExactDecimal.zero, cost = ExactDecimal.zero, realised = ExactDecimal.zero
            for lot in lots {
                let gross = lot.quantity.magnitude.multiplied(by: lot.price) ?? .zero
                if lot.quantity.scaled > 0 {
                    cost = cost.adding(gross)?.adding(lot.fees) ?? cost
                    quantity = quantity.adding(lot.quantity) ?? quantity
                } else {
                    let sold = lot.quantity.magnitude
                    let share = quantity.scaled == 0 ? ExactDecimal.zero : (cost.multiplied(by: sold)?.divided(by: quantity) ?? .zero)
                    realised = realised.adding(gross)?.adding(lot.fees.negated)?.adding(share.negated) ?? realised
                    cost = cost.adding(share.negated) ?? cost
                    quantity = quantity.adding(lot.quantity) ?? quantity
                }
            }
            var position = Position(symbol: symbol, currency: currency, quantity: quantity, cost: cost, realised: realised)
            let conversion = currency == home ? ExchangeRate(base: home, quote: home, rate: ExactDecimal(scaled: ExactDecimal.unit), time: now, source: "identity")
                : rate(currency, home)
            position.rate = conversion
            if let price = prices[symbol] {
                position.price = price
                let divisor: Int = Self.minorUnits[price.currency ?? ""] != nil ? 100 : 1
                position.unitPrice = price.price.divided(byInteger: divisor)
                if let unit = position.unitPrice {
                    position.value = quantity.multiplied(by: unit)
                    position.unrealised = position.value?.adding(cost.negated)
                    if cost.scaled != 0, let unrealised = position.unrealised { position.unrealisedRatio = unrealised.doubleValue / cost.doubleValue }
                    if let close = price.previousClose?.divided(byInteger: divisor), let change = unit.adding(close.negated) {
                        position.dayChange = quantity.multiplied(by: change)
                    }
                }
                if isStale(symbol, price) {
                    position.excluded = "stale price of \(price.time.rfc3339) (\(price.provider))"
                }
            } else if quantity.scaled != 0 {
                position.excluded = "no price"
            }
            if position.excluded == nil, quantity.scaled != 0, conversion == nil {
                position.excluded = "no rate from \(currency) to \(home)"
            }
            if position.excluded == nil, quantity.scaled != 0, let stale = staleness(conversion) {
                position.excluded = stale
            }
            if let conversion {
                position.homeValue = position.value.flatMap { $0.multiplied(by: conversion.rate) }
                position.homeUnrealised = position.unrealised.flatMap { $0.multiplied(by: conversion.rate) }
                position.homeDayChange = position.dayChange.flatMap { $0.multiplied(by: conversion.rate) }
            }
            positions.append(position)
        }
        var cash: [Cash] = []
        for (code, amount) in portfolio.cash.sorted(by: { $0.key < $1.key }) {
            let conversion = code == home ? ExchangeRate(base: home, quote: home, rate: ExactDecimal(scaled: ExactDecimal.unit), time: now, source: "identity")
                : rate(code, home)
            cash.append(Cash(currency: code, amount: amount, rate: conversion, homeAmount: conversion.flatMap { amount.multiplied(by: $0.rate) },
                             excluded: conversion == nil ? "no rate from \(code) to \(home)" : staleness(conversion)))
        }
        var valuation = PortfolioValuation(name: portfolio.name, currency: home, time: now, positions: positions, cash: cash,
                                           totalValue: .zero, totalCost: .zero, totalUnrealised: .zero, totalRealised: .zero, totalDayChange: .zero)
        for position in positions where position.excluded == nil {
            guard let conversion = position.rate else { continue }
            valuation.totalValue = valuation.totalValue.adding(position.homeValue ?? .zero) ?? valuation.totalValue
            valuation.totalCost = valuation.totalCost.adding(position.cost.multiplied(by: conversion.rate) ?? .zero) ?? valuation.totalCost
            valuation.totalUnrealised = valuation.totalUnrealised.adding(position.homeUnrealised ?? .zero) ?? valuation.totalUnrealised
            valuation.totalDayChange = valuation.totalDayChange.adding(position.homeDayChange ?? .zero) ?? valuation.totalDayChange
        }
        for position in positions {
            guard let conversion = position.rate else { continue }
            valuation.totalRealised = valuation.totalRealised.adding(position.realised.multiplied(by: conversion.rate) ?? .zero) ?? valuation.totalRealised
        }
        for entry in cash where entry.excluded == nil {
            valuation.totalValue = valuation.totalValue.adding(entry.homeAmount ?? .zero) ?? valuation.totalValue
        }
        if valuation.totalValue.scaled > 0 {
            for index in valuation.positions.indices where valuation.positions[index].excluded == nil {
                valuation.positions[index].weight = (valuation.positions[index].homeValue?.doubleValue ?? 0) / valuation.totalValue.doubleValue
            }
        }
        return valuation
    }
}

extension ExactDecimal {
    /// The absolute value.
    var magnitude: ExactDecimal { scaled < 0 ? negated : self }

    /// `self / other`, half-even to 8 digits; nil for a zero divisor or out of range.
    func divided(by other: ExactDecimal) -> ExactDecimal? {
        guard other.scaled != 0 else { return nil }
        return Self.roundedHalfEven(Int128(scaled) * Int128(Self.unit), dividedBy: Int128(other.scaled))
    }
}
