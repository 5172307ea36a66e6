import PriceWatchCore
import PriceWatchServices
import PriceWatchStore
import PriceWatchTestKit
import Testing

/// The evaluator against a real SQLite store: one transaction per poll, repeats, restarts.
@Suite struct RuleEvaluatorTests {
    typealias F = EngineFixtures

    @Test func firedAlertIsStoredWithItsDeliveriesAndState() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let config = F.configuration(rules: [F.rule("aapl-200", .above(F.decimal("200")))])
        let doorbell = Doorbell()
        let evaluator = try await RuleEvaluator(configuration: config, store: store, doorbell: doorbell, logger: F.logger,
                                                now: Timestamp(seconds: 1000))
        let before = doorbell.generation
        let report = try await evaluator.ingest(provider: "feed", results: F.ok(F.quote("AAPL", "200.00", at: 900)), now: Timestamp(seconds: 1000))
        #expect(report.accepted == 1)
        #expect(report.alerts.map(\.rule) == ["aapl-200"])
        #expect(doorbell.generation == before + 1)
        let log = try await store.alerts(since: nil)
        #expect(log.map(\.alert.id) == report.alerts.map(\.id))
        #expect(log.first?.deliveries.map(\.sink) == ["recorder"])
        #expect(log.first?.deliveries.map(\.status) == [.pending])
        let states = try await store.ruleStates()
        #expect(states[RuleStateKey(rule: "aapl-200", symbol: "AAPL")]?.state.phase == .fired)
    }

    @Test func repeatedAndRejectedQuotesAreNeitherStoredNorEvaluated() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let config = F.configuration(rules: [F.rule("aapl-100", .above(F.decimal("100")))])
        let evaluator = try await RuleEvaluator(configuration: config, store: store, doorbell: Doorbell(), logger: F.logger,
                                                now: Timestamp(seconds: 10_000))
        try await evaluator.ingest(provider: "feed", results: F.ok(F.quote("AAPL", "50", at: 900)), now: Timestamp(seconds: 10_000))
        let repeated = try await evaluator.ingest(provider: "feed", results: F.ok(F.quote("AAPL", "150", at: 900)), now: Timestamp(seconds: 10_000))
        #expect(repeated.repeated == 1 && repeated.alerts.isEmpty)
        let older = try await evaluator.ingest(provider: "feed", results: F.ok(F.quote("AAPL", "150", at: 899)), now: Timestamp(seconds: 10_000))
        #expect(older.repeated == 1 && older.alerts.isEmpty)
        let future = try await evaluator.ingest(provider: "feed", results: F.ok(F.quote("AAPL", "150", at: 10_000 + 301)), now: Timestamp(seconds: 10_000))
        #expect(future.rejected == 1 && future.alerts.isEmpty)
        let stored = try await store.quotes(provider: "feed", symbol: "AAPL")
        #expect(stored.map(\.time) == [Timestamp(seconds: 900)])
    }

    /// The daemon restarts over the same database: nothing fires twice, and a window rule
    /// finds its base in the history stored before the restart.
    @Test func stateAndHistorySurviveARestart() async throws {
        let directory = try F.temporaryDirectory()
        let path = directory + "/state.db"
        let rules = [
            F.rule("aapl-200", .above(F.decimal("200"))),
            F.rule("aapl-rise-10-1h", .rise(F.decimal("10")), baseline: .window(try RuleDuration(parsing: "1h"))),
        ]
        let config = F.configuration(rules: rules, statePath: path)
        do {
            let store = try SQLiteAlertStore.open(path: path)
            let evaluator = try await RuleEvaluator(configuration: config, store: store, doorbell: Doorbell(), logger: F.logger, now: Timestamp(seconds: 0))
            try await evaluator.ingest(provider: "feed", results: F.ok(F.quote("AAPL", "180", at: 0)), now: Timestamp(seconds: 0))
            let fired = try await evaluator.ingest(provider: "feed", results: F.ok(F.quote("AAPL", "201", at: 60)), now: Timestamp(seconds: 60))
            #expect(fired.alerts.map(\.rule) == ["aapl-200"])
            try store.close()
        }
        let store = try SQLiteAlertStore.open(path: path)
        let evaluator = try await RuleEvaluator(configuration: config, store: store, doorbell: Doorbell(), logger: F.logger, now: Timestamp(seconds: 3600))
        // Still above 200: the level rule stays fired. The window base (180 at t=0) comes from
        // the history written before the restart: 202 is 12.2% above it.
        let after = try await evaluator.ingest(provider: "feed", results: F.ok(F.quote("AAPL", "202", at: 3600)), now: Timestamp(seconds: 3600))
        #expect(after.alerts.map(\.rule) == ["aapl-rise-10-1h"])
        #expect(after.alerts.first?.base == F.decimal("180"))
        let log = try await store.alerts(since: nil)
        #expect(log.count == 2)
        #expect(Set(log.map(\.alert.id)).count == 2)
    }

    @Test func changingTheConditionResetsStateButEditingNotifyKeepsIt() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let original = F.rule("aapl", .above(F.decimal("100")))
        let evaluator = try await RuleEvaluator(configuration: F.configuration(rules: [original], sinks: ["recorder", "other"]), store: store,
                                                doorbell: Doorbell(), logger: F.logger, now: Timestamp(seconds: 0))
        let first = try await evaluator.ingest(provider: "feed", results: F.ok(F.quote("AAPL", "150", at: 0)), now: Timestamp(seconds: 0))
        #expect(first.alerts.count == 1)

        var renotified = original
        renotified.notify = ["other"]
        try await evaluator.reconfigure(F.configuration(rules: [renotified], sinks: ["recorder", "other"]), now: Timestamp(seconds: 60))
        let kept = try await evaluator.ingest(provider: "feed", results: F.ok(F.quote("AAPL", "151", at: 60)), now: Timestamp(seconds: 60))
        #expect(kept.alerts.isEmpty, "state kept: still fired")

        var changed = original
        changed.condition = .above(F.decimal("140"))
        try await evaluator.reconfigure(F.configuration(rules: [changed], sinks: ["recorder", "other"]), now: Timestamp(seconds: 120))
        let reset = try await evaluator.ingest(provider: "feed", results: F.ok(F.quote("AAPL", "152", at: 120)), now: Timestamp(seconds: 120))
        #expect(reset.alerts.map(\.condition) == ["above 140"], "state reset: armed again")
    }

    @Test func quotesOfAPollAreEvaluatedInTimeOrder() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let rules = [F.rule("x", .crosses(F.decimal("100")), symbols: ["A", "B"])]
        let evaluator = try await RuleEvaluator(configuration: F.configuration(rules: rules), store: store, doorbell: Doorbell(),
                                                logger: F.logger, now: Timestamp(seconds: 1000))
        try await evaluator.ingest(provider: "feed", results: F.ok(F.quote("A", "90", at: 10), F.quote("B", "90", at: 5)), now: Timestamp(seconds: 1000))
        let report = try await evaluator.ingest(provider: "feed", results: F.ok(F.quote("A", "110", at: 20), F.quote("B", "110", at: 15)),
                                                now: Timestamp(seconds: 1000))
        #expect(report.alerts.map(\.symbol) == ["B", "A"])
    }
}
