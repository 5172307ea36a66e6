/// How much an account may still sell of a symbol when the order is placed: without short
/// selling, what it holds less what its open sell orders of the symbol already sell. The fill
/// consumer checks the position again when it fills (``PaperFillDecision``); this check refuses
/// at once an order that could only be rejected later.
public enum PaperSaleLimit {
    /// Why `order` is refused, or nil when it may be placed: a buy, an account opened with
    /// `--allow-short`, or a sale within the position. `book` is the account's balances now;
    /// `openOrders` its orders without an outcome (other symbols and buys are ignored).
    public static func refusal(of order: PaperOrder, account: PaperAccount, book: PaperBook,
                               openOrders: [PaperOrder]) -> String? {
        guard order.side == .sell, !account.allowsShortSelling else { return nil }
        let held = book.quantity(of: order.symbol)
        var pending = ExactDecimal.zero
        for open in openOrders where open.side == .sell && open.symbol == order.symbol && open.id != order.id {
            guard let sum = pending.adding(open.quantity) else { return nil }
            pending = sum
        }
        guard let available = held.subtracting(pending), let left = available.subtracting(order.quantity),
              left < .zero else { return nil }
        let committed = pending.isPositive ? ", \(pending) of them in open sell orders," : ""
        return "cannot sell \(order.quantity) \(order.symbol): paper account \(account.name) holds \(held) \(order.symbol)"
            + committed + " and does not allow short selling (it was opened without --allow-short)"
    }
}
