import GRDB
import PriceWatchCore
import Testing
@testable import PriceWatchStore

/// The paper ledger in SQLite: idempotent commands, one outcome per order, append-only tables.
@Suite struct PaperLedgerStoreTests {
    func decimal(_ text: String) -> ExactDecimal {
        guard let value = ExactDecimal(text) else { preconditionFailure("bad decimal \(text)") }
        return value
    }

    var account: PaperAccount {
        PaperAccount(name: "alice", currency: "USD", startingCash: decimal("1000"), sinks: ["hook"],
                     openedAt: Timestamp(milliseconds: 1000))
    }

    func fill(_ id: String = "o1") -> PaperFill {
        PaperFill(orderID: id, account: "alice", symbol: "AAPL", side: .buy, quantity: decimal("2"), price: decimal("100"),
                  notional: decimal("200"), fee: decimal("1"), quoteTime: Timestamp(milliseconds: 5000),
                  bookedAt: Timestamp(milliseconds: 6000), provider: "replay")
    }

    @Test func openingAndPlacingAreIdempotent() async throws {
        let store = try SQLiteAlertStore.inMemory()
        _ = try await store.openPaperAccount(account)
        var later = account
        later.openedAt = Timestamp(milliseconds: 9999)
        #expect(try await store.openPaperAccount(later).openedAt == Timestamp(milliseconds: 1000))
        var different = account
        different.startingCash = decimal("5")
        await #expect(throws: PaperLedgerError.self) { _ = try await store.openPaperAccount(different) }
        #expect(try await store.paperPostings(account: "alice").count == 2)

        let order = PaperOrder(id: "o1", account: "alice", symbol: "AAPL", side: .buy, quantity: decimal("2"),
                               placedAt: Timestamp(milliseconds: 2000))
        _ = try await store.placePaperOrder(order)
        var retried = order
        retried.placedAt = Timestamp(milliseconds: 3000)
        #expect(try await store.placePaperOrder(retried).order.placedAt == Timestamp(milliseconds: 2000))
        var other = order
        other.quantity = decimal("3")
        await #expect(throws: PaperLedgerError.self) { _ = try await store.placePaperOrder(other) }
        var stranger = order
        stranger.account = "bob"
        await #expect(throws: PaperLedgerError.unknownAccount("bob")) { _ = try await store.placePaperOrder(stranger) }
        #expect(try await store.paperOrders(account: nil).count == 1)
        #expect(try await store.openPaperOrders().map(\.id) == ["o1"])
    }

    @Test func anOrderIsBookedOnceWithItsNotification() async throws {
        let store = try SQLiteAlertStore.inMemory()
        _ = try await store.openPaperAccount(account)
        _ = try await store.placePaperOrder(PaperOrder(id: "o1", account: "alice", symbol: "AAPL", side: .buy,
                                                       quantity: decimal("2"), placedAt: Timestamp(milliseconds: 2000)))
        let content = PaperFillMessage(fill: fill(), currency: "USD")
        let notice = PaperFillNotice(notification: OutgoingNotification(id: content.notificationID, time: Timestamp(milliseconds: 5000),
                                                                        content: content), sinks: ["hook"])
        let now = Timestamp(milliseconds: 6000)
        #expect(try await store.book([.filled(fill())], notifications: [notice], now: now).count == 1)
        // A replay after a restart, and a cancel that lost the race, book nothing.
        #expect(try await store.book([.filled(fill())], notifications: [notice], now: now).isEmpty)
        #expect(try await store.book([.cancelled(account: "alice", orderID: "o1", at: now)], notifications: [],
                                     now: now).isEmpty)
        // An order that does not exist gets no outcome.
        #expect(try await store.book([.filled(fill("nope"))], notifications: [], now: now).isEmpty)
        let postings = try await store.paperPostings(account: "alice")
        #expect(postings.count == 6)
        let book = PaperBook(postings: postings)
        #expect(book.cash == decimal("799"))
        #expect(book.quantity(of: "AAPL") == decimal("2"))
        #expect(try await store.openPaperOrders().isEmpty)
        #expect(try await store.pendingDeliveries(dueBy: now, limit: 10).map(\.notification.id) == ["fill-alice-o1"])
        #expect(PaperLedgerCheck.problems(account: account, postings: postings,
                                          fills: try await store.paperFills(account: "alice")).isEmpty)
    }

    @Test func theLedgerTablesAreAppendOnly() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("state.db")
        let store = try SQLiteAlertStore.open(path: path)
        _ = try await store.openPaperAccount(account)
        try store.close()
        let raw = RawDatabase(path: path)
        for sql in ["UPDATE paper_posting SET amount = 0", "DELETE FROM paper_posting", "DELETE FROM paper_account",
                    "UPDATE paper_account SET starting_cash = 1"] {
            #expect(throws: (any Error).self, "\(sql) must abort") { try raw.execute(sql) }
        }
        #expect(try raw.integer("SELECT count(*) FROM paper_posting") == 2)
        #expect(try raw.migrations().contains("paper-ledger"))
    }
}
