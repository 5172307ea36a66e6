/// The balances of one paper account, derived from its ledger: cash, each position's units and
/// the money put into it, fees paid. Never stored: rebuilt from the postings whenever needed.
public struct PaperBook: Sendable, Hashable {
    /// One symbol held (or short).
    public struct Position: Sendable, Hashable {
        /// Units held; negative when short.
        public var quantity: ExactDecimal
        /// Money paid for the units bought less money received for the units sold (the
        /// position ledger's balance).
        public var netCost: ExactDecimal

        public init(quantity: ExactDecimal = .zero, netCost: ExactDecimal = .zero) {
            self.quantity = quantity
            self.netCost = netCost
        }
    }

    public var cash: ExactDecimal
    /// Positions by symbol; a closed position (zero units) is dropped.
    public var positions: [String: Position]
    public var feesPaid: ExactDecimal

    public init(cash: ExactDecimal = .zero, positions: [String: Position] = [:], feesPaid: ExactDecimal = .zero) {
        self.cash = cash
        self.positions = positions
        self.feesPaid = feesPaid
    }

    /// The balances after `postings` (in any order); postings to `equity` do not change them.
    public init(postings: [PaperPosting]) {
        self.init()
        for posting in postings { apply(posting) }
    }

    /// Books one posting. Amounts stay within the range of the account (a fill that would leave
    /// it is rejected before booking), so wrapping is never reached.
    public mutating func apply(_ posting: PaperPosting) {
        switch posting.ledger {
        case .cash:
            cash = ExactDecimal(scaled: cash.scaled &+ posting.amount.scaled)
        case .fees:
            feesPaid = ExactDecimal(scaled: feesPaid.scaled &+ posting.amount.scaled)
        case .equity:
            break
        case .position(let symbol):
            var position = positions[symbol] ?? Position()
            position.quantity = ExactDecimal(scaled: position.quantity.scaled &+ posting.quantity.scaled)
            position.netCost = ExactDecimal(scaled: position.netCost.scaled &+ posting.amount.scaled)
            positions[symbol] = position.quantity == .zero ? nil : position
        }
    }

    /// Books a fill's postings.
    public mutating func apply(_ fill: PaperFill) {
        for posting in fill.postings { apply(posting) }
    }

    /// Units of `symbol` held (zero when none).
    public func quantity(of symbol: String) -> ExactDecimal { positions[symbol]?.quantity ?? .zero }

    /// Cash plus every position at `prices` (a symbol without a price counts at its net cost,
    /// and is named in ``Valuation/unpriced``); nil on overflow.
    public func valuation(prices: [String: ExactDecimal]) -> Valuation? {
        var equity = cash
        var unpriced: [String] = []
        for (symbol, position) in positions.sorted(by: { $0.key < $1.key }) {
            let value: ExactDecimal?
            if let price = prices[symbol] {
                value = position.quantity.multiplied(by: price)
            } else {
                unpriced.append(symbol)
                value = position.netCost
            }
            guard let value, let sum = equity.adding(value) else { return nil }
            equity = sum
        }
        return Valuation(equity: equity, unpriced: unpriced)
    }

    /// What the account is worth.
    public struct Valuation: Sendable, Hashable {
        public var equity: ExactDecimal
        /// Symbols held without a known price (valued at their net cost).
        public var unpriced: [String]
    }
}
