import GRDB
import PriceWatchCore
@testable import PriceWatchStore
import Testing

/// Every write of a poll (candles from the history recorder; quotes, rule states, alerts and
/// their deliveries from `commit(_:)`) runs statements compiled once per connection, not once
/// per row (issue 31: 13% of a 50,000-symbol poll went to compiling SQL).
@Suite struct StatementPreparationTests {
    static let symbols = 1_000

    /// One poll as the daemon writes it: the history recorder's candles, then the evaluator's
    /// commit of every quote, every symbol's rule state and ten alerts to two sinks each.
    static func poll(_ number: Int64, into store: SQLiteAlertStore) async throws {
        let seconds = number * 60
        let quotes = try (0..<symbols).map { index in
            try Fixtures.quote("S\(index)", price: "\(100 + index).\(number)", at: seconds)
        }
        try await store.recordQuotes(quotes)
        var states: [RuleStateKey: StoredRuleState] = [:]
        for quote in quotes {
            states[RuleStateKey(rule: "rule-\(quote.symbol)", symbol: quote.symbol)] = StoredRuleState(
                fingerprint: "f", state: RuleState(phase: .armed, lastAlertAt: Fixtures.time(seconds), alertCount: Int(number)))
        }
        let alerts = try (0..<10).map { index in
            PendingAlert(alert: try Fixtures.alert(id: "poll\(number)-\(index)", rule: "rule-S\(index)", symbol: "S\(index)", at: seconds),
                         sinks: ["stdout/console", "webhook/ops"])
        }
        try await store.commit(StoreCommit(provider: "yahoo", quotes: quotes, states: states, alerts: alerts,
                                           now: Fixtures.time(seconds)))
    }

    @Test func theSecondPollOfAThousandQuotesCompilesNoStatement() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let compilations = StatementCompilations()
        try await store.writer.write { db in compilations.install(on: db) }
        try await Self.poll(0, into: store)
        let first = compilations.take().filter { !StatementCompilations.isTransactionControl($0) }
        try await Self.poll(1, into: store)
        let second = compilations.take()
        try await store.writer.write { db in compilations.remove(from: db) }

        // The trace sees the poll's statements: each compiled exactly once in the first poll.
        for table in ["candle", "quote", "rule_state", "notification", "alert", "delivery"] {
            #expect(first.filter { $0.contains("INSERT INTO \(table) ") }.count == 1, "INSERT INTO \(table) compiled once")
        }
        #expect(Set(first).count == first.count, "a statement compiled more than once in the first poll: \(first.count) compilations")
        // Only GRDB's BEGIN and COMMIT of the poll's two transactions.
        let statements = second.filter { !StatementCompilations.isTransactionControl($0) }
        #expect(statements.count == 0, "the second poll compiled statements, first: \(statements.prefix(1))")
        #expect(second.count <= 4)
        #expect(try await store.counts().quotes == 2 * Self.symbols)
    }
}
