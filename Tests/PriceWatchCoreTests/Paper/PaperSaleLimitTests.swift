import Testing
@testable import PriceWatchCore

/// `paper sell` beyond the position: refused when placed, naming the held quantity and what
/// open sell orders already sell, unless the account allows short selling.
@Suite struct PaperSaleLimitTests {
    let account = PaperAccount(name: "alice", currency: "USD", startingCash: dec("10000"), openedAt: at(0))

    func order(_ id: String, _ side: PaperSide, _ quantity: String, symbol: String = "AAPL") -> PaperOrder {
        PaperOrder(id: id, account: "alice", symbol: symbol, side: side, quantity: dec(quantity), placedAt: at(1000))
    }

    /// The book after buying `quantity` AAPL at 100.
    func holding(_ quantity: String) -> PaperBook {
        var book = PaperBook(postings: PaperPosting.opening(of: account))
        guard case .fill(let fill) = PaperFillDecision.decide(
            order: order("b", .buy, quantity), account: account, book: book,
            quote: Quote(symbol: "AAPL", price: dec("100"), time: at(2000)), provider: "replay", bookedAt: at(2000),
            marketOpen: true) else { return book }
        book.apply(fill)
        return book
    }

    @Test func aSaleOfNothingHeldNamesTheHeldQuantity() {
        let refusal = PaperSaleLimit.refusal(of: order("s", .sell, "3", symbol: "TSLA"), account: account,
                                             book: holding("10"), openOrders: [])
        #expect(refusal == "cannot sell 3 TSLA: paper account alice holds 0 TSLA and does not allow short selling "
            + "(it was opened without --allow-short)")
    }

    @Test func aSaleWithinThePositionAndBuysPass() {
        #expect(PaperSaleLimit.refusal(of: order("s", .sell, "10"), account: account, book: holding("10"), openOrders: []) == nil)
        #expect(PaperSaleLimit.refusal(of: order("s", .buy, "1000"), account: account, book: holding("0"), openOrders: []) == nil)
    }

    @Test func openSellOrdersOfTheSymbolCount() {
        let open = [order("s1", .sell, "6"), order("b2", .buy, "50"), order("t1", .sell, "9", symbol: "TSLA")]
        #expect(PaperSaleLimit.refusal(of: order("s2", .sell, "4"), account: account, book: holding("10"), openOrders: open) == nil)
        #expect(PaperSaleLimit.refusal(of: order("s2", .sell, "5"), account: account, book: holding("10"), openOrders: open)
            == "cannot sell 5 AAPL: paper account alice holds 10 AAPL, 6 of them in open sell orders, and does not allow "
            + "short selling (it was opened without --allow-short)")
    }

    @Test func anAccountAllowingShortSellingSellsBeyond() {
        var short = account
        short.allowsShortSelling = true
        #expect(PaperSaleLimit.refusal(of: order("s", .sell, "3", symbol: "TSLA"), account: short, book: holding("0"),
                                       openOrders: []) == nil)
    }
}
