import Logging
import PriceWatchCore
import PriceWatchServices
import PriceWatchStore
import Testing

/// A market that is closed before `opensAt` (quote time) and open after: enough to script a fill
/// across a market close.
private struct ScriptedMarket: MarketHours {
    let opensAt: Timestamp

    func market(ofSymbol symbol: String, exchange: String?) -> MarketIdentifier? {
        symbol == "MSFT" ? MarketIdentifier("XNYS") : nil
    }

    func status(of market: MarketIdentifier, at instant: Timestamp) -> MarketStatus {
        instant < opensAt ? .closed(until: opensAt) : .open(until: Timestamp(milliseconds: .max))
    }

    func timeZone(of market: MarketIdentifier) -> String? { "America/New_York" }
}

@Suite struct PaperFillConsumerTests {
    func decimal(_ text: String) -> ExactDecimal {
        guard let value = ExactDecimal(text) else { preconditionFailure("bad decimal \(text)") }
        return value
    }

    func poll(_ prices: [String: String], quoteTime: Int64, pollTime: Int64) -> PolledQuotes {
        var results: [String: Result<Quote, ProviderError>] = [:]
        for (symbol, price) in prices {
            results[symbol] = .success(Quote(symbol: symbol, price: decimal(price), time: Timestamp(milliseconds: quoteTime)))
        }
        return PolledQuotes(provider: "replay", results: results, time: Timestamp(milliseconds: pollTime))
    }

    func order(_ id: String, _ symbol: String, _ side: PaperSide, _ quantity: String, limit: String? = nil,
               at placed: Int64) -> PaperOrder {
        PaperOrder(id: id, account: "alice", symbol: symbol, side: side, quantity: decimal(quantity),
                   limit: limit.map(decimal), placedAt: Timestamp(milliseconds: placed))
    }

    @Test func aScriptedSessionFillsRejectsWaitsAndNeverBooksTwice() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let account = PaperAccount(name: "alice", currency: "USD", startingCash: decimal("10000"),
                                   fees: PaperFees(flat: decimal("1")), sinks: ["hook"],
                                   openedAt: Timestamp(milliseconds: 0))
        _ = try await store.openPaperAccount(account)
        for order in [order("m1", "AAPL", .buy, "10", at: 100),
                      order("l1", "AAPL", .buy, "5", limit: "150", at: 100),
                      order("big", "AAPL", .buy, "1000", at: 100),
                      order("x1", "MSFT", .buy, "2", at: 100)] {
            _ = try await store.placePaperOrder(order)
        }
        let markets = ScriptedMarket(opensAt: Timestamp(milliseconds: 50_000))
        let polls = [
            // Before the orders were placed: nothing fills.
            poll(["AAPL": "190", "MSFT": "400"], quoteTime: 10_000, pollTime: 50),
            // AAPL fills (m1), big is rejected for lack of cash; MSFT's market is closed.
            poll(["AAPL": "190.5", "MSFT": "401"], quoteTime: 20_000, pollTime: 1000),
            // MSFT's market opened: x1 fills at the first quote after the open.
            poll(["AAPL": "189", "MSFT": "402.25"], quoteTime: 60_000, pollTime: 2000),
        ]
        let doorbell = Doorbell()
        let consumer = PaperFillConsumer(store: store, markets: markets, doorbell: doorbell,
                                         logger: Logger(label: "test"))
        for poll in polls { _ = await consumer.receive(poll) }

        let records = try await store.paperOrders(account: "alice")
        #expect(records.map(\.status) == ["filled", "open", "rejected", "filled"])
        if case .filled(let fill)? = records[0].outcome {
            #expect(fill.price == decimal("190.5"))
        } else {
            Issue.record("m1 filled at the first quote after it was placed")
        }
        if case .rejected(_, _, let reason, _)? = records[2].outcome {
            #expect(reason == "insufficient cash: needs 190501.00 USD, has 8094.00 USD")
        } else {
            Issue.record("big is rejected")
        }
        if case .filled(let fill)? = records[3].outcome {
            #expect(fill.price == decimal("402.25"))
            #expect(fill.quoteTime == Timestamp(milliseconds: 60_000))
        } else {
            Issue.record("x1 filled after the market opened")
        }
        let book = PaperBook(postings: try await store.paperPostings(account: "alice"))
        // 10000 - (1905 + 1) - (804.5 + 1) = 7288.5
        #expect(book.cash == decimal("7288.5"))
        #expect(book.quantity(of: "AAPL") == decimal("10"))
        #expect(book.quantity(of: "MSFT") == decimal("2"))
        #expect(doorbell.generation >= 2)
        #expect(Set(try await store.pendingDeliveries(dueBy: Timestamp(milliseconds: 10_000), limit: 10)
            .map(\.notification.id)) == ["fill-alice-m1", "fill-alice-x1"])

        // A restart replays the same quotes into a new consumer: nothing is booked twice.
        let postingsBefore = try await store.paperPostings(account: "alice").count
        let restarted = PaperFillConsumer(store: store, markets: markets, doorbell: nil, logger: Logger(label: "test"))
        for poll in polls { _ = await restarted.receive(poll) }
        #expect(try await store.paperPostings(account: "alice").count == postingsBefore)
        #expect(try await store.paperOrders(account: "alice").map(\.status) == ["filled", "open", "rejected", "filled"])
        #expect(PaperLedgerCheck.problems(account: account, postings: try await store.paperPostings(account: "alice"),
                                          fills: try await store.paperFills(account: "alice")).isEmpty)
    }

    @Test func concurrentPollsNeverSpendTheSameCashTwice() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let account = PaperAccount(name: "alice", currency: "USD", startingCash: decimal("100"),
                                   openedAt: Timestamp(milliseconds: 0))
        _ = try await store.openPaperAccount(account)
        _ = try await store.placePaperOrder(order("a", "AAA", .buy, "1", at: 1))
        _ = try await store.placePaperOrder(order("b", "BBB", .buy, "1", at: 1))
        let consumer = PaperFillConsumer(store: store, markets: AlwaysOpenMarkets(), doorbell: nil,
                                         logger: Logger(label: "test"))
        async let first = consumer.receive(poll(["AAA": "80"], quoteTime: 10, pollTime: 10))
        async let second = consumer.receive(poll(["BBB": "80"], quoteTime: 10, pollTime: 10))
        _ = await (first, second)
        let statuses = try await store.paperOrders(account: "alice").map(\.status).sorted()
        #expect(statuses == ["filled", "rejected"])
        #expect(PaperBook(postings: try await store.paperPostings(account: "alice")).cash == decimal("20"))
    }
}
