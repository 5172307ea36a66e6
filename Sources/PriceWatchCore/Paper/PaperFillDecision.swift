/// What to do with an open order given one quote: the pure decision of the fill consumer.
public enum PaperFillDecision: Sendable, Hashable {
    /// Not now: the market is closed, the limit is not reached, or the quote is not after the order.
    case wait
    /// Fill it.
    case fill(PaperFill)
    /// It could fill at this price, but the account forbids the result.
    case reject(reason: String)

    /// Decides `order` against `quote`, with the account's balances `book` as they stand
    /// (earlier fills of the same poll applied).
    ///
    /// - A market order fills at the quote's price; a buy limit fills when the price is at or
    ///   below the limit, a sell limit at or above it, at the quote's price.
    /// - Only while `marketOpen`: a closed market means wait, not reject.
    /// - A buy whose cost plus fee exceeds the cash is rejected unless the account allows
    ///   negative cash; a sell of more units than held unless it allows short selling.
    public static func decide(order: PaperOrder, account: PaperAccount, book: PaperBook, quote: Quote,
                              provider: String, bookedAt: Timestamp, marketOpen: Bool) -> PaperFillDecision {
        guard marketOpen, quote.symbol == order.symbol, quote.price.isPositive else { return .wait }
        if let limit = order.limit {
            switch order.side {
            case .buy where quote.price > limit: return .wait
            case .sell where quote.price < limit: return .wait
            default: break
            }
        }
        let currency = account.currency
        guard let notional = order.quantity.multiplied(by: quote.price),
              let fee = account.fees.fee(forNotional: notional)
        else {
            return .reject(reason: "order value out of range: \(order.quantity) \(order.symbol) at \(quote.price)")
        }
        let fill = PaperFill(orderID: order.id, account: account.name, symbol: order.symbol, side: order.side,
                             quantity: order.quantity, price: quote.price, notional: notional, fee: fee,
                             quoteTime: quote.time, bookedAt: bookedAt, provider: provider)
        guard let cashAfter = book.cash.adding(fill.cashChange) else {
            return .reject(reason: "order value out of range: \(order.quantity) \(order.symbol) at \(quote.price)")
        }
        if cashAfter < .zero, !account.allowsNegativeCash {
            let needed = ExactDecimal(scaled: -fill.cashChange.scaled)
            return .reject(reason: "insufficient cash: needs \(Self.money(needed)) \(currency), has \(Self.money(book.cash)) \(currency)")
        }
        let held = book.quantity(of: order.symbol)
        if order.side == .sell, held < order.quantity, !account.allowsShortSelling {
            return .reject(reason: "short selling not allowed: holds \(held) \(order.symbol), sells \(order.quantity)")
        }
        return .fill(fill)
    }

    /// Money for messages: half-even to cents, at least two fractional digits.
    static func money(_ value: ExactDecimal) -> String {
        value.roundedHalfEven(toFractionDigits: 2).formatted(minimumFractionDigits: 2)
    }
}
