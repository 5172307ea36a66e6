import PriceWatchCore
import PriceWatchStore
import Testing

/// `history(provider:symbol:since:)`, `windowHistories(_:)` and `pruneHistory(before:)`.
@Suite struct HistoryTests {
    /// A store holding `yahoo` AAPL quotes at 10, 20, 30, 40 and 50 seconds, priced 1 to 5.
    static func store() async throws -> SQLiteAlertStore {
        let store = try SQLiteAlertStore.inMemory()
        let quotes = try (1...5).map { try Fixtures.quote(price: String($0), at: Int64($0) * 10) }
        try await store.commit(StoreCommit(provider: "yahoo", quotes: quotes, now: Fixtures.time(60)))
        return store
    }

    static func seconds(_ points: [HistoryPoint]) -> [Int64] {
        points.map { ($0.time.milliseconds - Fixtures.time(0).milliseconds) / 1000 }
    }

    /// One `history` query: `since` and the expected quote times, in seconds.
    struct Window: Sendable, CustomTestStringConvertible {
        var since: Int64
        var expected: [Int64]
        var testDescription: String { "since \(since)" }
    }

    static let windows: [Window] = [
        Window(since: 35, expected: [30, 40, 50]),            // anchor 30, then 40 and 50
        Window(since: 30, expected: [20, 30, 40, 50]),        // at `since` is included; the anchor is before it
        Window(since: 31, expected: [30, 40, 50]),
        Window(since: 10, expected: [10, 20, 30, 40, 50]),    // nothing before: no anchor
        Window(since: -100, expected: [10, 20, 30, 40, 50]),
        Window(since: 50, expected: [40, 50]),
        Window(since: 51, expected: [50]),                    // the anchor is the newest overall
        Window(since: 10_000, expected: [50]),                // the newest is always there
    ]

    @Test(arguments: windows)
    func anchorAndWindow(window: Window) async throws {
        let store = try await Self.store()
        let history = try await store.history(provider: "yahoo", symbol: "AAPL", since: Fixtures.time(window.since))
        #expect(Self.seconds(history) == window.expected)
        #expect(history.map(\.price.description) == window.expected.map { String($0 / 10) })
    }

    @Test func unknownSymbolHasNoHistory() async throws {
        let store = try await Self.store()
        #expect(try await store.history(provider: "yahoo", symbol: "MSFT", since: Fixtures.time(0)).isEmpty)
        #expect(try await store.history(provider: "coinbase", symbol: "AAPL", since: Fixtures.time(0)).isEmpty)
    }

    @Test func providersAndSymbolsAreSeparate() async throws {
        let store = try await Self.store()
        try await store.commit(StoreCommit(
            provider: "stooq", quotes: [try Fixtures.quote(price: "100", at: 45)], now: Fixtures.time(60)))
        try await store.commit(StoreCommit(
            provider: "yahoo", quotes: [try Fixtures.quote("MSFT", price: "200", at: 25)], now: Fixtures.time(60)))

        let yahoo = try await store.history(provider: "yahoo", symbol: "AAPL", since: Fixtures.time(41))
        #expect(Self.seconds(yahoo) == [40, 50])
        let stooq = try await store.history(provider: "stooq", symbol: "AAPL", since: Fixtures.time(46))
        #expect(Self.seconds(stooq) == [45])
        #expect(stooq.map(\.price) == [try Fixtures.decimal("100")])
        let msft = try await store.history(provider: "yahoo", symbol: "MSFT", since: Fixtures.time(0))
        #expect(Self.seconds(msft) == [25])
    }

    /// The engine's start-up read: per source, the newest quote and the window counted back
    /// from it (with its anchor), every source in one call and in the order asked.
    @Test func windowHistoriesAnswerEachSourceInOrder() async throws {
        let store = try await Self.store()
        try await store.commit(StoreCommit(
            provider: "yahoo", quotes: [try Fixtures.quote("MSFT", price: "200", at: 25)], now: Fixtures.time(60)))
        let window = try #require(RuleDuration(seconds: 15))
        let histories = try await store.windowHistories([
            WindowHistoryRequest(source: QuoteSource(provider: "yahoo", symbol: "AAPL"), window: window),
            WindowHistoryRequest(source: QuoteSource(provider: "yahoo", symbol: "MSFT"), window: window),
            WindowHistoryRequest(source: QuoteSource(provider: "stooq", symbol: "AAPL"), window: window),
            WindowHistoryRequest(source: QuoteSource(provider: "yahoo", symbol: "AAPL"), window: nil),
        ])
        // AAPL's newest is at 50: from 35 on, with 30 as the anchor; counted from the quote, not the clock.
        #expect(histories.map(Self.seconds) == [[30, 40, 50], [25], [], [50]])
    }

    @Test func pruningKeepsTheAnchor() async throws {
        let store = try await Self.store()
        #expect(try await store.pruneHistory(before: Fixtures.time(35)) == 2)   // 10 and 20 go, 30 stays
        let all = try await store.history(provider: "yahoo", symbol: "AAPL", since: Fixtures.time(-100))
        #expect(Self.seconds(all) == [30, 40, 50])
        #expect(try await store.pruneHistory(before: Fixtures.time(35)) == 0)
    }

    @Test func pruningAtAQuoteTimeKeepsThatQuote() async throws {
        let store = try await Self.store()
        #expect(try await store.pruneHistory(before: Fixtures.time(30)) == 2)
        let all = try await store.history(provider: "yahoo", symbol: "AAPL", since: Fixtures.time(-100))
        #expect(Self.seconds(all) == [30, 40, 50])
    }

    @Test func pruningKeepsTheNewestQuoteOfAnOldSeries() async throws {
        let store = try await Self.store()
        #expect(try await store.pruneHistory(before: Fixtures.time(1000)) == 4)
        let all = try await store.history(provider: "yahoo", symbol: "AAPL", since: Fixtures.time(-100))
        #expect(Self.seconds(all) == [50])
    }

    /// Pruning at `cutoff` never changes a window base at or after it: for every instant `t`
    /// from the cutoff on, the newest quote at or before `t` is the same before and after.
    @Test(arguments: [Int64(-5), 10, 15, 30, 45, 50, 55])
    func pruningKeepsEveryBaseFromTheCutoffOn(cutoff: Int64) async throws {
        let store = try await Self.store()
        func bases() async throws -> [Int64?] {
            let all = try await store.history(provider: "yahoo", symbol: "AAPL", since: Fixtures.time(-1000))
            return stride(from: cutoff, through: 70, by: 1).map { instant in
                Self.seconds(all.filter { $0.time <= Fixtures.time(instant) }).last
            }
        }
        let before = try await bases()
        try await store.pruneHistory(before: Fixtures.time(cutoff))
        #expect(try await bases() == before)
    }

    @Test func pruningKeepsAnAnchorPerProviderAndSymbol() async throws {
        let store = try await Self.store()
        try await store.commit(StoreCommit(
            provider: "stooq", quotes: [try Fixtures.quote(price: "7", at: 5), try Fixtures.quote(price: "8", at: 15)],
            now: Fixtures.time(60)))
        try await store.commit(StoreCommit(
            provider: "yahoo", quotes: [try Fixtures.quote("MSFT", price: "9", at: 12)], now: Fixtures.time(60)))

        // yahoo AAPL loses 10 and 20; stooq AAPL loses 5; yahoo MSFT keeps its only quote.
        #expect(try await store.pruneHistory(before: Fixtures.time(35)) == 3)
        #expect(Self.seconds(try await store.history(provider: "stooq", symbol: "AAPL", since: Fixtures.time(-100))) == [15])
        #expect(Self.seconds(try await store.history(provider: "yahoo", symbol: "MSFT", since: Fixtures.time(-100))) == [12])
        #expect(Self.seconds(try await store.history(provider: "yahoo", symbol: "AAPL", since: Fixtures.time(-100))) == [30, 40, 50])
    }
}
