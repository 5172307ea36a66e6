import PriceWatchCore
import PriceWatchApp
import PriceWatchServices
import PriceWatchStore
import PriceWatchTestKit
import Testing

/// Polls whose commit the store refuses (a full disk, an I/O error) are kept, in arrival order,
/// and committed and evaluated once it accepts writes again: a crossing that came and went
/// during the outage is alerted, with its quote time, and nothing fires twice.
@Suite struct StoreOutageTests {
    typealias F = EngineFixtures

    static func evaluator(_ store: some RuleStateStore & QuoteHistoryStore, rules: [Rule], backlogLimit: Int = PollBacklog.defaultMaximumQuotes) async throws -> RuleEvaluator {
        try await RuleEvaluator(configuration: F.configuration(rules: rules), store: store, doorbell: Doorbell(), logger: F.logger,
                                now: Timestamp(seconds: 0), backlogLimit: backlogLimit)
    }

    /// Ingests one quote; true when the poll was kept for later instead.
    @discardableResult
    static func poll(_ evaluator: RuleEvaluator, _ price: String, at seconds: Int64) async throws -> Bool {
        do {
            try await evaluator.ingest(provider: "feed", results: F.ok(F.quote("AAPL", price, at: seconds)), now: Timestamp(seconds: seconds + 1))
            return false
        } catch is PollKeptForLater {
            return true
        }
    }

    @Test func aCrossingThatCameAndWentDuringTheOutageIsAlertedWithItsQuoteTime() async throws {
        let store = try FlakyStore()
        let evaluator = try await Self.evaluator(store, rules: [
            F.rule("aapl-200", .above(F.decimal("200"))),
            F.rule("aapl-rise-5-1m", .rise(F.decimal("5")), baseline: .window(try RuleDuration(parsing: "1m"))),
        ])
        #expect(try await Self.poll(evaluator, "190", at: 0) == false)
        store.failCommits(with: FlakyStore.diskFull)
        #expect(try await Self.poll(evaluator, "201", at: 60) == true)
        #expect(try await Self.poll(evaluator, "199", at: 120) == true)
        #expect(try await Self.poll(evaluator, "198", at: 180) == true)
        #expect(store.refusedCommits == 3)
        #expect(try await store.alerts(since: nil).isEmpty)
        store.failCommits(with: nil)
        #expect(try await Self.poll(evaluator, "197", at: 240) == false)
        let log = try await store.alerts(since: nil)
        #expect(log.map { "\($0.alert.rule) \($0.alert.time.seconds) \($0.alert.price)" } == [
            "aapl-200 60 201", "aapl-rise-5-1m 60 201",
        ])
        // Every quote is stored, in order; the next poll fires nothing again.
        #expect(try await store.store.quotes(provider: "feed", symbol: "AAPL").map(\.time.seconds) == [0, 60, 120, 180, 240])
        #expect(try await Self.poll(evaluator, "196", at: 300) == false)
        #expect(try await store.alerts(since: nil).count == 2)
    }

    /// The same for a portfolio rule on a holding no price rule watches: its quotes are kept
    /// with the poll, stored once the store accepts writes, and the crossing is alerted.
    @Test func aPortfolioCrossingDuringTheOutageIsAlertedAndItsHoldingsStored() async throws {
        let store = try FlakyStore()
        let evaluator = try await RuleEvaluator(configuration: PortfolioRuleEvaluatorTests.configuration(), store: store, doorbell: Doorbell(),
                                                logger: F.logger, now: Timestamp(seconds: 0))
        let rate = Quote(symbol: "USDEUR=X", price: F.decimal("0.9"), time: Timestamp(seconds: 0), currency: "EUR")
        func poll(_ quotes: Quote..., at seconds: Int64) async throws -> Bool {
            do {
                try await evaluator.ingest(provider: "feed", results: Dictionary(uniqueKeysWithValues: quotes.map { ($0.symbol, .success($0)) }),
                                           now: Timestamp(seconds: seconds + 1))
                return false
            } catch is PollKeptForLater {
                return true
            }
        }
        // 10 AAPL × 150 USD × 0.9 + 1000 EUR = 2350 EUR: above the 2300 level.
        #expect(try await poll(F.quote("AAPL", "150", at: 0), rate, at: 0) == false)
        store.failCommits(with: FlakyStore.diskFull)
        #expect(try await poll(F.quote("AAPL", "140", at: 60), at: 60) == true)   // 2260: below
        #expect(try await poll(F.quote("AAPL", "150", at: 120), at: 120) == true)  // back above
        #expect(try await store.alerts(since: nil).isEmpty)
        store.failCommits(with: nil)
        #expect(try await poll(F.quote("AAPL", "151", at: 180), at: 180) == false)
        let log = try await store.alerts(since: nil)
        #expect(log.map { "\($0.alert.rule) \($0.alert.time.seconds) \($0.alert.price)" } == ["retirement-low 60 2260"])
        #expect(try await store.store.quotes(provider: "feed", symbol: "AAPL").map(\.time.seconds) == [0, 60, 120, 180])
    }

    @Test func theReportOfTheKeptPollSaysWhatWaits() async throws {
        let store = try FlakyStore()
        let evaluator = try await Self.evaluator(store, rules: [F.rule("aapl-200", .above(F.decimal("200")))])
        store.failCommits(with: FlakyStore.diskFull)
        await #expect {
            try await evaluator.ingest(provider: "feed", results: F.ok(F.quote("AAPL", "201", at: 60)), now: Timestamp(seconds: 61))
        } throws: { error in
            let description = "\(error)"
            return description.contains("database or disk is full") && description.contains("1 poll(s) with 1 quote(s) wait")
                && description.contains("evaluated when the store accepts writes again")
        }
    }

    /// A reload pauses the pollers by cancelling them, which cancels an evaluation's commit. That
    /// is no store outage: nothing above info is logged, and the poll is evaluated with the next.
    @Test func anInterruptedCommitIsKeptWithoutAnErrorAndEvaluatedWithTheNextPoll() async throws {
        let store = try FlakyStore()
        let logs = CapturingLogHandler()
        let evaluator = try await RuleEvaluator(configuration: F.configuration(rules: [F.rule("aapl-200", .above(F.decimal("200")))]),
                                                store: store, doorbell: Doorbell(), logger: logs.logger, now: Timestamp(seconds: 0))
        store.failCommits(with: CancellationError())
        let receipt = await evaluator.receive(PolledQuotes(provider: "feed", results: F.ok(F.quote("AAPL", "201", at: 60)),
                                                           time: Timestamp(seconds: 61)))
        #expect(receipt.acceptedSymbols.isEmpty)
        #expect(logs.lines(atLeast: .notice).isEmpty, "an interruption is not an error: \(logs.lines)")
        #expect(logs.lines.contains { $0.message.contains("evaluation interrupted") && $0.message.contains("evaluated with the next poll") },
                "the interruption is logged at info: \(logs.lines)")
        store.failCommits(with: nil)
        #expect(try await Self.poll(evaluator, "202", at: 120) == false)
        #expect(try await store.alerts(since: nil).map { "\($0.alert.rule) \($0.alert.time.seconds)" } == ["aapl-200 60"])
        #expect(!logs.lines.contains { $0.message.contains("accepts writes again") }, "no outage was reported, so none ends")
    }

    /// Past the bound, the oldest polls go (logged); the newest are kept and evaluated.
    @Test func pastTheBoundTheOldestPollsAreDropped() async throws {
        let store = try FlakyStore()
        let evaluator = try await Self.evaluator(store, rules: [F.rule("aapl-200", .above(F.decimal("200")))], backlogLimit: 3)
        store.failCommits(with: FlakyStore.diskFull)
        try await Self.poll(evaluator, "201", at: 60)   // dropped when the 4th poll comes (bound: 3 quotes)
        try await Self.poll(evaluator, "150", at: 120)  // dropped when the 5th comes
        try await Self.poll(evaluator, "202", at: 180)
        try await Self.poll(evaluator, "150", at: 240)
        store.failCommits(with: nil)
        try await Self.poll(evaluator, "150", at: 300)
        let log = try await store.alerts(since: nil)
        #expect(log.map { $0.alert.time.seconds } == [180])
        #expect(try await store.store.quotes(provider: "feed", symbol: "AAPL").map(\.time.seconds) == [180, 240, 300])
    }

    /// A commit that fails for a reason a retry cannot cure (a broken constraint) loses that
    /// poll only: it never blocks the polls after it.
    @Test func aPollThatCanNeverBeWrittenDoesNotBlockTheOthers() async throws {
        let store = try FlakyStore()
        let evaluator = try await Self.evaluator(store, rules: [F.rule("aapl-200", .above(F.decimal("200")))])
        store.failCommits(with: StoreError.failed(path: ":memory:", operation: "commit", reason: "CHECK constraint failed"))
        await #expect(throws: StoreError.self) { try await Self.poll(evaluator, "201", at: 60) }
        store.failCommits(with: nil)
        try await Self.poll(evaluator, "150", at: 120)
        try await Self.poll(evaluator, "202", at: 180)
        #expect(try await store.alerts(since: nil).map { $0.alert.time.seconds } == [180])
    }

    @Test func theBacklogKeepsArrivalOrderAndItsBound() {
        var backlog = PollBacklog(maximumQuotes: 3)
        func poll(_ seconds: Int64, quotes: Int) -> PollBacklog.Poll {
            PollBacklog.Poll(provider: "feed", quotes: (0..<quotes).map { F.quote("S\($0)", "1", at: seconds) },
                             receivedAt: Timestamp(seconds: seconds))
        }
        #expect(backlog.append(poll(1, quotes: 1)) == PollBacklog.Dropped())
        #expect(backlog.append(poll(2, quotes: 2)) == PollBacklog.Dropped())
        let dropped = backlog.append(poll(3, quotes: 1))
        #expect(dropped.polls == 1 && dropped.quotes == 1 && dropped.earliest == Timestamp(seconds: 1))
        #expect(backlog.count == 2 && backlog.quoteCount == 3)
        #expect(backlog.first?.receivedAt == Timestamp(seconds: 2))
        // A single poll larger than the bound is still kept: the newest is never dropped.
        _ = backlog.append(poll(4, quotes: 5))
        #expect(backlog.count == 1 && backlog.first?.receivedAt == Timestamp(seconds: 4))
        backlog.removeFirst()
        #expect(backlog.isEmpty && backlog.quoteCount == 0)
    }
}
