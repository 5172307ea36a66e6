import Logging
import PriceWatchCore
import PriceWatchServices
import PriceWatchStore
import Synchronization
import Testing

/// The history recorder (a quote consumer) and the history retention job, on a real in-memory
/// SQLite store.
@Suite struct HistoryRecorderTests {
    static let open = Timestamp(seconds: 1_727_875_800) // 2024-10-02T13:30:00Z

    static func poll(_ quotes: [Quote], failing symbol: String? = nil) -> PolledQuotes {
        var results = Dictionary(uniqueKeysWithValues: quotes.map { ($0.symbol, Result<Quote, ProviderError>.success($0)) })
        if let symbol { results[symbol] = .failure(ProviderError(.unknownSymbol, "no such symbol")) }
        return PolledQuotes(provider: "feed", results: results, time: open)
    }

    @Test func everyPolledQuoteBecomesPartOfItsSymbolsOneMinuteCandle() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let recorder = HistoryRecorder(store: store, logger: EngineFixtures.logger)
        let receipts = [
            await recorder.receive(Self.poll([EngineFixtures.quote("AAPL", "225.70", at: Self.open.seconds),
                                              EngineFixtures.quote("MSFT", "416.10", at: Self.open.seconds)], failing: "NOPE")),
            await recorder.receive(Self.poll([EngineFixtures.quote("AAPL", "226.10", at: Self.open.seconds + 30)])),
            await recorder.receive(Self.poll([EngineFixtures.quote("AAPL", "225.20", at: Self.open.seconds + 61)])),
        ]
        // The recorder does not judge freshness.
        #expect(receipts.allSatisfy { $0 == .none })
        let aapl = try await store.candles(symbol: "AAPL", interval: .oneMinute, from: Self.open,
                                           to: Self.open.adding(RuleDuration(seconds: 3_600)!))
        #expect(aapl.map(\.close) == [EngineFixtures.decimal("226.10"), EngineFixtures.decimal("225.20")])
        #expect(aapl.first?.high == EngineFixtures.decimal("226.10"))
        #expect(aapl.first?.low == EngineFixtures.decimal("225.70"))
        let msft = try await store.candles(symbol: "MSFT", interval: .oneMinute, from: Self.open,
                                           to: Self.open.adding(RuleDuration(seconds: 60)!))
        #expect(msft.count == 1)
        #expect(try await store.candles(symbol: "NOPE", interval: .oneMinute, from: Self.open,
                                        to: Self.open.adding(RuleDuration(seconds: 60)!)).isEmpty)
    }

    @Test func quotesTheEvaluatorRejectsAreNotHistory() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let recorder = HistoryRecorder(store: store, logger: EngineFixtures.logger)
        // An hour ahead of the poll's time: rejected, as the evaluator rejects it.
        _ = await recorder.receive(Self.poll([EngineFixtures.quote("AAPL", "225.70", at: Self.open.seconds + 3_600),
                                              EngineFixtures.quote("MSFT", "416.10", at: Self.open.seconds)]))
        let day = Self.open.adding(RuleDuration(seconds: 86_400)!)
        #expect(try await store.candles(symbol: "AAPL", interval: .oneMinute, from: Self.open, to: day).isEmpty)
        #expect(try await store.candles(symbol: "MSFT", interval: .oneMinute, from: Self.open, to: day).count == 1)
    }

    @Test func aStoreFailureIsLoggedOncePerEpisodeAndNeverThrown() async throws {
        let store = try FailingCandleStore()
        let log = CapturingLogHandler()
        let recorder = HistoryRecorder(store: store, logger: log.logger)
        store.failing.withLock { $0 = true }
        for offset in 0..<3 {
            _ = await recorder.receive(Self.poll([EngineFixtures.quote("AAPL", "225", at: Self.open.seconds + Int64(offset))]))
        }
        #expect(log.lines(atLeast: .warning).count == 1)
        #expect(log.lines(atLeast: .warning).first?.message.contains("could not record price history of provider 'feed'") == true)
        store.failing.withLock { $0 = false }
        _ = await recorder.receive(Self.poll([EngineFixtures.quote("AAPL", "226", at: Self.open.seconds + 10)]))
        #expect(log.lines.contains { $0.level == .info && $0.message == "price history is recorded again" })
        let candles = try await store.store.candles(symbol: "AAPL", interval: .oneMinute, from: Self.open,
                                                    to: Self.open.adding(RuleDuration(seconds: 60)!))
        #expect(candles.map(\.close) == [EngineFixtures.decimal("226")])
    }

    @Test func retentionDeletesCandlesOlderThanHistoryRetention() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let day: Int64 = 86_400
        try await store.recordQuotes([EngineFixtures.quote("AAPL", "1", at: Self.open.seconds - 100 * day),
                                      EngineFixtures.quote("AAPL", "2", at: Self.open.seconds - 10 * day)])
        var configuration = EngineFixtures.configuration(rules: [])
        configuration.historyRetention = RuleDuration(seconds: 30 * day)!
        let frozen = configuration
        let job = HistoryRetention(store: store, configuration: { frozen }, wallClock: { Self.open },
                                   logger: EngineFixtures.logger)
        try await job.run()
        let left = try await store.candles(symbol: "AAPL", interval: .oneDay, from: Timestamp(seconds: 0), to: Self.open)
        #expect(left.map(\.close) == [EngineFixtures.decimal("2")])
        #expect(job.job.name == "history-retention")
        #expect(Configuration.defaultHistoryRetention == RuleDuration(seconds: 90 * day))
    }
}

/// The real in-memory store, whose writes can be made to fail.
final class FailingCandleStore: CandleStore {
    let store: SQLiteAlertStore
    let failing = Mutex(false)

    init() throws { store = try SQLiteAlertStore.inMemory() }

    private func check() throws {
        if failing.withLock({ $0 }) { throw StoreError.unavailable(path: ":memory:", operation: "write", reason: "disk I/O error") }
    }

    func recordQuotes(_ quotes: [Quote]) async throws {
        try check()
        try await store.recordQuotes(quotes)
    }

    func storeCandles(_ candles: [Candle], symbol: String) async throws {
        try check()
        try await store.storeCandles(candles, symbol: symbol)
    }

    func pruneCandles(before cutoff: Timestamp) async throws -> Int {
        try check()
        return try await store.pruneCandles(before: cutoff)
    }

    func candles(symbol: String, interval: CandleInterval, from: Timestamp, to: Timestamp) async throws -> [Candle] {
        try await store.candles(symbol: symbol, interval: interval, from: from, to: to)
    }
}
