/// A portfolio of real holdings (`/etc/pricewatch/portfolios.d/NAME.toml`): a home currency,
/// cash balances per currency, and positions as lots (docs/portfolios.md).
public struct Portfolio: Sendable, Hashable {
    /// The file's name without `.toml`.
    public var name: String
    /// ISO 4217: what totals are shown in.
    public var currency: String
    /// Cash per currency.
    public var cash: [String: ExactDecimal]
    /// Purchases and sales, in file order.
    public var lots: [PortfolioLot]

    public init(name: String, currency: String, cash: [String: ExactDecimal] = [:], lots: [PortfolioLot] = []) {
        self.name = name
        self.currency = currency
        self.cash = cash
        self.lots = lots
    }

    /// The symbols held or once held, in order of first appearance.
    public var symbols: [String] {
        var seen: Set<String> = []
        return lots.map(\.symbol).filter { seen.insert($0).inserted }
    }
}

/// One purchase (positive quantity) or sale (negative quantity) of a symbol.
public struct PortfolioLot: Sendable, Hashable {
    public var symbol: String
    /// Shares or units; negative for a sale.
    public var quantity: ExactDecimal
    /// The price paid or received per unit, in ``currency``.
    public var price: ExactDecimal
    /// ISO 4217 code of ``price`` and ``fees``.
    public var currency: String
    public var date: CivilDate
    /// Fees paid on the trade, in ``currency``.
    public var fees: ExactDecimal

    public init(symbol: String, quantity: ExactDecimal, price: ExactDecimal, currency: String, date: CivilDate,
                fees: ExactDecimal = .zero) {
        self.symbol = symbol
        self.quantity = quantity
        self.price = price
        self.currency = currency
        self.date = date
        self.fees = fees
    }
}
