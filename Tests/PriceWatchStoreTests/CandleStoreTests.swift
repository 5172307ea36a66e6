import GRDB
import PriceWatchCore
import PriceWatchStore
import Testing

/// The `candles` migration and the store's `CandleStore` / `PriceHistoryReader` role.
@Suite struct CandleStoreTests {
    static func d(_ text: String) throws -> ExactDecimal { try Fixtures.decimal(text) }

    @Test func quotesFoldIntoOneMinuteCandles() async throws {
        let store = try SQLiteAlertStore.inMemory()
        // 13:30:00, :20, :40 in one minute; 13:31:05 in the next; a repeat changes nothing.
        try await store.recordQuotes([try Fixtures.quote(price: "10", at: 0), try Fixtures.quote(price: "12", at: 20)])
        try await store.recordQuotes([try Fixtures.quote(price: "9", at: 40), try Fixtures.quote(price: "9", at: 40),
                                      try Fixtures.quote(price: "11", at: 65)])
        let candles = try await store.candles(symbol: "AAPL", interval: .oneMinute, from: Fixtures.time(0), to: Fixtures.time(3_600))
        #expect(candles == [
            Candle(time: Fixtures.time(0), interval: .oneMinute, open: try Self.d("10"), high: try Self.d("12"),
                   low: try Self.d("9"), close: try Self.d("9")),
            Candle(time: Fixtures.time(60), interval: .oneMinute, open: try Self.d("11"), high: try Self.d("11"),
                   low: try Self.d("11"), close: try Self.d("11")),
        ])
    }

    @Test("rows written many to a statement fold as rows written one at a time")
    func batchedWritesFoldLikeSingleOnes() async throws {
        // 137 quotes: two statements of 50 rows and 37 single ones; the same minute and
        // symbol repeats inside one statement, out of time order, and across statements.
        let quotes: [Quote] = try (0..<137).map { (index: Int) throws -> Quote in
            let symbol = index % 3 == 0 ? "MSFT" : "AAPL"
            let price = String(100 + (index * 37) % 50)
            return try Fixtures.quote(symbol, price: price, at: Int64((index * 7) % 180))
        }
        let batched = try SQLiteAlertStore.inMemory()
        try await batched.recordQuotes(quotes)
        let single = try SQLiteAlertStore.inMemory()
        for quote in quotes { try await single.recordQuotes([quote]) }
        for symbol in ["AAPL", "MSFT"] {
            let expected = try await single.candles(symbol: symbol, interval: .oneMinute, from: Fixtures.time(0), to: Fixtures.time(3_600))
            #expect(expected.count == 3)
            #expect(try await batched.candles(symbol: symbol, interval: .oneMinute, from: Fixtures.time(0), to: Fixtures.time(3_600)) == expected)
        }
        try await batched.commit(StoreCommit(provider: "yahoo", quotes: quotes, states: [:], alerts: [], now: Fixtures.time(200)))
        try await batched.commit(StoreCommit(provider: "yahoo", quotes: quotes, states: [:], alerts: [], now: Fixtures.time(201)))
        for quote in quotes { try await single.commit(StoreCommit(provider: "yahoo", quotes: [quote], states: [:], alerts: [], now: Fixtures.time(200))) }
        let batchedQuotes = try await batched.quotes(provider: "yahoo", symbol: "AAPL")
        let singleQuotes = try await single.quotes(provider: "yahoo", symbol: "AAPL")
        #expect(batchedQuotes == singleQuotes)
        let batchedCount = try await batched.counts().quotes
        let singleCount = try await single.counts().quotes
        #expect(batchedCount == singleCount)
        #expect(batchedCount > 100)
    }

    @Test func anOlderQuoteArrivingLateDoesNotBecomeTheClose() async throws {
        let store = try SQLiteAlertStore.inMemory()
        try await store.recordQuotes([try Fixtures.quote(price: "10", at: 30)])
        try await store.recordQuotes([try Fixtures.quote(price: "14", at: 10)])
        let candle = try #require(try await store.candles(symbol: "AAPL", interval: .oneMinute, from: Fixtures.time(0),
                                                         to: Fixtures.time(60)).first)
        #expect(candle.close == (try Self.d("10")))
        #expect(candle.high == (try Self.d("14")))
    }

    @Test func coarserIntervalsAggregateTheStoredMinutesAndPreferStoredCandles() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let quotes = try (0..<10).map { try Fixtures.quote(price: String(100 + $0), at: Int64($0) * 60) }
        try await store.recordQuotes(quotes)
        let fiveMinutes = try await store.candles(symbol: "AAPL", interval: .fiveMinutes, from: Fixtures.time(0),
                                                  to: Fixtures.time(600))
        #expect(fiveMinutes.map(\.close) == [try Self.d("104"), try Self.d("109")])
        #expect(fiveMinutes.map(\.open) == [try Self.d("100"), try Self.d("105")])
        // A backfilled 5m candle for the first period wins over the aggregate.
        let backfilled = Candle(time: Fixtures.time(0), interval: .fiveMinutes, open: try Self.d("1"), high: try Self.d("2"),
                                low: try Self.d("1"), close: try Self.d("2"))
        try await store.storeCandles([backfilled], symbol: "AAPL")
        let mixed = try await store.candles(symbol: "AAPL", interval: .fiveMinutes, from: Fixtures.time(0), to: Fixtures.time(600))
        #expect(mixed.first == backfilled)
        #expect(mixed.count == 2)
        // Other symbols and times outside the range are not read.
        #expect(try await store.candles(symbol: "MSFT", interval: .oneMinute, from: Fixtures.time(0), to: Fixtures.time(600)).isEmpty)
        #expect(try await store.candles(symbol: "AAPL", interval: .oneMinute, from: Fixtures.time(120), to: Fixtures.time(180)).count == 1)
    }

    @Test func inconsistentBackfilledCandlesAreNotStored() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let bad = Candle(time: Fixtures.time(0), interval: .oneMinute, open: try Self.d("5"), high: try Self.d("1"),
                         low: try Self.d("2"), close: try Self.d("3"))
        try await store.storeCandles([bad], symbol: "AAPL")
        #expect(try await store.candles(symbol: "AAPL", interval: .oneMinute, from: Fixtures.time(0), to: Fixtures.time(60)).isEmpty)
    }

    @Test func pruningDeletesOnlyCandlesBeforeTheCutoff() async throws {
        let store = try SQLiteAlertStore.inMemory()
        try await store.recordQuotes(try (0..<5).map { try Fixtures.quote(price: "10", at: Int64($0) * 60) })
        #expect(try await store.pruneCandles(before: Fixtures.time(120)) == 2)
        let left = try await store.candles(symbol: "AAPL", interval: .oneMinute, from: Fixtures.time(0), to: Fixtures.time(600))
        #expect(left.map(\.time) == [Fixtures.time(120), Fixtures.time(180), Fixtures.time(240)])
    }

    @Test func aFileWithoutTheCandlesTableReadsAsNoHistory() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("old.db")
        let store = try SQLiteAlertStore.open(path: path)
        try store.close()
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: "DROP TABLE candle; DELETE FROM grdb_migrations WHERE identifier = 'candles'")
        }
        try queue.close()
        let reader = try SQLiteAlertStore.openReadOnly(path: path)
        #expect(try await reader.candles(symbol: "AAPL", interval: .oneMinute, from: Fixtures.time(0), to: Fixtures.time(60)).isEmpty)
        try reader.close()
    }
}
