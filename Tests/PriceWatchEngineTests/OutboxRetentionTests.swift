import PriceWatchCore
import PriceWatchServices
import PriceWatchStore
import Testing

/// What the hourly prune removes from the alert log and the rule states, and what it keeps.
@Suite struct OutboxRetentionTests {
    typealias F = EngineFixtures

    @Test func theLogIsKeptForRetentionOrThirtyDaysAndPendingAlertsAlways() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let day: Int64 = 86_400
        let now = Timestamp(seconds: 100 * day)
        let live = F.rule("live", .above(F.decimal("1")))
        var configuration = F.configuration(rules: [live])
        #expect(OutboxRetention.logRetention(configuration) == RuleDuration(seconds: 30 * day), "7d retention: 30 days win")
        func alert(_ rule: String, daysAgo: Int64) -> Alert {
            Alert(rule: F.rule(rule, .above(F.decimal("1"))), quote: F.quote("AAPL", "2", at: now.seconds - daysAgo * day),
                  provider: "feed", trigger: .init(price: F.decimal("2")))
        }
        let old = alert("live", daysAgo: 40), oldPending = alert("live", daysAgo: 39), recent = alert("live", daysAgo: 10)
        for item in [old, oldPending, recent] {
            try await store.commit(StoreCommit(provider: "feed", alerts: [PendingAlert(alert: item, sinks: ["recorder"])], now: item.time))
        }
        try await store.recordAttempts([old, recent].map { DeliveryOutcome(notificationID: $0.id, sink: "recorder", at: $0.time, result: .delivered) })
        let fired = RuleState(phase: .fired, lastAlertAt: Timestamp(seconds: now.seconds - 40 * day), alertCount: 1)
        try await store.commit(StoreCommit(provider: "feed", states: [
            RuleStateKey(rule: "live", symbol: "AAPL"): StoredRuleState(fingerprint: "f", state: fired),
            RuleStateKey(rule: "removed", symbol: "AAPL"): StoredRuleState(fingerprint: "f", state: fired),
            RuleStateKey(rule: "removed-recently-fired", symbol: "AAPL"): StoredRuleState(
                fingerprint: "f", state: RuleState(phase: .fired, lastAlertAt: Timestamp(seconds: now.seconds - day), alertCount: 1)),
        ], now: now))

        try await OutboxRetention.prune(store: store, configuration: configuration, now: now, logger: F.logger)
        #expect(try await store.alerts(since: nil).map(\.alert.id) == [oldPending.id, recent.id])
        #expect(Set(try await store.ruleStates().keys.map(\.rule)) == ["live", "removed-recently-fired"])

        // A longer `retention` keeps the log longer.
        configuration.retention = try #require(RuleDuration(seconds: 60 * day))
        #expect(OutboxRetention.logRetention(configuration) == RuleDuration(seconds: 60 * day))
    }
}
