import Testing
@testable import PriceWatchCore

@Suite struct PaperFillDecisionTests {
    let account = PaperAccount(name: "alice", currency: "usd", startingCash: dec("10000"),
                               fees: PaperFees(flat: dec("1"), percent: dec("0.1")), openedAt: at(0))
    func order(_ side: PaperSide, _ quantity: String, limit: String? = nil) -> PaperOrder {
        PaperOrder(id: "o1", account: "alice", symbol: "AAPL", side: side, quantity: dec(quantity),
                   limit: limit.map(dec), placedAt: at(1000))
    }
    func decide(_ order: PaperOrder, price: String, book: PaperBook? = nil, open: Bool = true,
                account: PaperAccount? = nil) -> PaperFillDecision {
        PaperFillDecision.decide(order: order, account: account ?? self.account,
                                 book: book ?? PaperBook(postings: PaperPosting.opening(of: account ?? self.account)),
                                 quote: Quote(symbol: "AAPL", price: dec(price), time: at(5000)), provider: "replay",
                                 bookedAt: at(6000), marketOpen: open)
    }

    @Test func aMarketBuyFillsAtTheQuoteWithItsFee() throws {
        guard case .fill(let fill) = decide(order(.buy, "10"), price: "190.5") else {
            Issue.record("expected a fill")
            return
        }
        // 10 * 190.5 = 1905; fee 1 + 0.1% of 1905 = 2.905.
        #expect(fill.notional == dec("1905"))
        #expect(fill.fee == dec("2.905"))
        #expect(fill.cashChange == dec("-1907.905"))
        #expect(fill.postings.reduce(Int64(0)) { $0 + $1.amount.scaled } == 0)
        var book = PaperBook(postings: PaperPosting.opening(of: account))
        book.apply(fill)
        #expect(book.cash == dec("8092.095"))
        #expect(book.quantity(of: "AAPL") == dec("10"))
        #expect(book.feesPaid == dec("2.905"))
    }

    @Test func limitsWaitUntilThePriceIsReached() {
        #expect(decide(order(.buy, "1", limit: "180"), price: "180.01") == .wait)
        if case .fill(let fill) = decide(order(.buy, "1", limit: "180"), price: "179.5") {
            #expect(fill.price == dec("179.5"))
        } else {
            Issue.record("a buy limit at 180 fills at 179.5")
        }
        var book = PaperBook(postings: PaperPosting.opening(of: account))
        book.positions["AAPL"] = PaperBook.Position(quantity: dec("5"), netCost: dec("900"))
        #expect(decide(order(.sell, "5", limit: "200"), price: "199.99", book: book) == .wait)
        if case .fill = decide(order(.sell, "5", limit: "200"), price: "200", book: book) {} else {
            Issue.record("a sell limit at 200 fills at 200")
        }
    }

    @Test func aClosedMarketWaits() {
        #expect(decide(order(.buy, "1"), price: "100", open: false) == .wait)
    }

    @Test func lackOfCashAndShortSalesAreRejectedWithTheReason() {
        #expect(decide(order(.buy, "100"), price: "190.5")
            == .reject(reason: "insufficient cash: needs 19070.05 USD, has 10000.00 USD"))
        #expect(decide(order(.sell, "3"), price: "190")
            == .reject(reason: "short selling not allowed: holds 0 AAPL, sells 3"))
        var permissive = account
        permissive.allowsShortSelling = true
        permissive.allowsNegativeCash = true
        if case .fill = decide(order(.sell, "3"), price: "190", account: permissive) {} else {
            Issue.record("an account that allows short selling sells short")
        }
        if case .fill = decide(order(.buy, "100"), price: "190.5", account: permissive) {} else {
            Issue.record("an account that allows negative cash buys on margin")
        }
    }

    @Test func theLedgerCheckFindsATamperedPosting() throws {
        guard case .fill(let fill) = decide(order(.buy, "10"), price: "190.5") else {
            Issue.record("expected a fill")
            return
        }
        let postings = PaperPosting.opening(of: account) + fill.postings
        #expect(PaperLedgerCheck.problems(account: account, postings: postings, fills: [fill]).isEmpty)
        var tampered = postings
        tampered[2].amount = dec("1000")
        let problems = PaperLedgerCheck.problems(account: account, postings: tampered, fills: [fill])
        #expect(problems.contains("account alice: entry o1 does not balance: its postings sum to -905"))
        #expect(problems.contains("account alice: the postings of order o1 do not match its fill"))
        #expect(!PaperLedgerCheck.problems(account: account, postings: postings, fills: []).isEmpty)
    }

    @Test func moneyRoundsHalfEven() {
        #expect(dec("2.905").roundedHalfEven(toFractionDigits: 2) == dec("2.9"))
        #expect(dec("2.915").roundedHalfEven(toFractionDigits: 2) == dec("2.92"))
        #expect(dec("-2.905").roundedHalfEven(toFractionDigits: 2) == dec("-2.9"))
        #expect(dec("3").multiplied(by: dec("0.33333333")) == dec("0.99999999"))
        #expect(dec("0.00000001").multiplied(by: dec("0.5")) == dec("0"))
        #expect(dec("0.00000003").multiplied(by: dec("0.5")) == dec("0.00000002"))
    }
}
