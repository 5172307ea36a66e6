/// One fill of one order: the trade at a quote's price, with its fee, booked as one ledger
/// entry (``PaperPosting``s that sum to zero).
public struct PaperFill: Sendable, Hashable, Codable {
    public var orderID: String
    public var account: String
    public var symbol: String
    public var side: PaperSide
    public var quantity: ExactDecimal
    /// The quote's price.
    public var price: ExactDecimal
    /// `quantity * price`, rounded half-even to 8 fractional digits.
    public var notional: ExactDecimal
    public var fee: ExactDecimal
    /// The quote's time.
    public var quoteTime: Timestamp
    /// The wall-clock time of the poll that brought the quote: the ledger's time of the fill.
    public var bookedAt: Timestamp
    /// Who served the quote.
    public var provider: String

    public init(orderID: String, account: String, symbol: String, side: PaperSide, quantity: ExactDecimal,
                price: ExactDecimal, notional: ExactDecimal, fee: ExactDecimal, quoteTime: Timestamp,
                bookedAt: Timestamp, provider: String) {
        self.orderID = orderID
        self.account = account
        self.symbol = symbol
        self.side = side
        self.quantity = quantity
        self.price = price
        self.notional = notional
        self.fee = fee
        self.quoteTime = quoteTime
        self.bookedAt = bookedAt
        self.provider = provider
    }

    /// The change of cash: `-(notional + fee)` for a buy, `notional - fee` for a sell.
    public var cashChange: ExactDecimal {
        switch side {
        case .buy: ExactDecimal(scaled: -(notional.scaled + fee.scaled))
        case .sell: ExactDecimal(scaled: notional.scaled - fee.scaled)
        }
    }

    /// The change of the position's quantity.
    public var quantityChange: ExactDecimal {
        side == .buy ? quantity : ExactDecimal(scaled: -quantity.scaled)
    }

    /// The double entry of the fill: cash against the position at the notional, cash against
    /// the fees account at the fee. The amounts sum to zero.
    public var postings: [PaperPosting] {
        let notionalSigned = side == .buy ? notional.scaled : -notional.scaled
        var postings = [
            PaperPosting(entry: orderID, account: account, ledger: .position(symbol),
                         amount: ExactDecimal(scaled: notionalSigned), quantity: quantityChange, time: bookedAt),
            PaperPosting(entry: orderID, account: account, ledger: .cash,
                         amount: ExactDecimal(scaled: -notionalSigned), quantity: .zero, time: bookedAt),
        ]
        if fee != .zero {
            postings.append(PaperPosting(entry: orderID, account: account, ledger: .fees, amount: fee, quantity: .zero,
                                         time: bookedAt))
            postings.append(PaperPosting(entry: orderID, account: account, ledger: .cash,
                                         amount: ExactDecimal(scaled: -fee.scaled), quantity: .zero, time: bookedAt))
        }
        return postings
    }
}
