import PriceWatchCore
import PriceWatchStore
import Testing

/// Every stored type comes back exactly as it went in.
@Suite struct RoundTripTests {
    /// Scaled values at the edges of `ExactDecimal`: 3.135, the smallest step, the largest
    /// integral value of the literal range, the extremes of `Int64`, zero.
    static let scaledEdges: [Int64] = [
        313_500_000, 1, 9_223_372_036_800_000_000, Int64.max, Int64.min, 0, -1,
    ]

    @Test(arguments: scaledEdges)
    func decimalsStayExact(scaled: Int64) async throws {
        let store = try SQLiteAlertStore.inMemory()
        let value = ExactDecimal(scaled: scaled)
        let quote = Quote(symbol: "X", price: value, time: Fixtures.time(1), previousClose: value)
        var alert = try Fixtures.alert(id: "a-\(scaled)")
        alert.price = value
        alert.base = value
        alert.change = value
        try await store.commit(StoreCommit(provider: "p", quotes: [quote],
                                           alerts: [PendingAlert(alert: alert, sinks: ["stdout/console"])],
                                           now: Fixtures.time(2)))

        let quotes = try await store.quotes(provider: "p", symbol: "X")
        #expect(quotes.map(\.price) == [value])
        let history = try await store.history(provider: "p", symbol: "X", since: Fixtures.time(0))
        #expect(history == [HistoryPoint(time: Fixtures.time(1), price: value)])
        let alerts = try await store.alerts(since: nil)
        #expect(alerts.map(\.alert) == [alert])
    }

    @Test func decimalLiteralsStayExact() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let texts = ["3.135", "0.00000001", "92233720368", "92233720368.54775807", "225.7"]
        let quotes = try texts.enumerated().map { index, text in
            try Fixtures.quote("X", price: text, at: Int64(index))
        }
        try await store.commit(StoreCommit(provider: "p", quotes: quotes, now: Fixtures.time(10)))
        let stored = try await store.quotes(provider: "p", symbol: "X")
        #expect(stored.map(\.price.description) == ["3.135", "0.00000001", "92233720368", "92233720368.54775807", "225.7"])
    }

    @Test func quoteWithEveryField() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let quote = Quote(symbol: "AAPL", price: try Fixtures.decimal("225.70"), time: Fixtures.time(0),
                          previousClose: try Fixtures.decimal("226.21"), currency: "USD", exchange: "NMS",
                          marketState: "REGULAR")
        try await store.commit(StoreCommit(provider: "yahoo", quotes: [quote], now: Fixtures.time(1)))
        #expect(try await store.quotes(provider: "yahoo", symbol: "AAPL") == [quote])
    }

    @Test func quoteWithoutOptionalFields() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let quote = try Fixtures.quote(at: 5)
        try await store.commit(StoreCommit(provider: "yahoo", quotes: [quote], now: Fixtures.time(6)))
        let stored = try await store.quotes(provider: "yahoo", symbol: "AAPL")
        #expect(stored == [quote])
        #expect(stored.first?.previousClose == nil)
        #expect(stored.first?.currency == nil)
    }

    @Test func ruleStates() async throws {
        let store = try SQLiteAlertStore.inMemory()
        #expect(try await store.ruleStates().isEmpty)
        let states: [RuleStateKey: StoredRuleState] = [
            RuleStateKey(rule: "aapl-200", symbol: "AAPL"): StoredRuleState(fingerprint: "f1", state: .initial),
            RuleStateKey(rule: "btc-cross", symbol: "BTC-USD"): StoredRuleState(
                fingerprint: "f2", state: RuleState(phase: .armed, lastAlertAt: Fixtures.time(-60), alertCount: 3, side: .up)),
            RuleStateKey(rule: "btc-cross", symbol: "ETH-USD"): StoredRuleState(
                fingerprint: "f2", state: RuleState(phase: .armed, lastAlertAt: nil, alertCount: 0, side: .down)),
            RuleStateKey(rule: "msft-fall", symbol: "MSFT"): StoredRuleState(
                fingerprint: "f3", state: RuleState(phase: .fired, lastAlertAt: Fixtures.time(0), alertCount: Int(Int32.max) + 1)),
        ]
        try await store.commit(StoreCommit(provider: "yahoo", states: states, now: Fixtures.time(1)))
        #expect(try await store.ruleStates() == states)
    }

    @Test func ruleStateIsReplacedByTheLatest() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let key = RuleStateKey(rule: "aapl-200", symbol: "AAPL")
        try await store.commit(StoreCommit(
            provider: "yahoo", states: [key: StoredRuleState(fingerprint: "old", state: .initial)], now: Fixtures.time(0)))
        let fired = StoredRuleState(fingerprint: "new", state: RuleState(phase: .fired, lastAlertAt: Fixtures.time(5), alertCount: 1))
        try await store.commit(StoreCommit(provider: "yahoo", states: [key: fired], now: Fixtures.time(6)))
        #expect(try await store.ruleStates() == [key: fired])
        #expect(try await store.counts().ruleStates == 1)
    }

    @Test(arguments: [true, false])
    func alertAndDeliveries(complete: Bool) async throws {
        let store = try SQLiteAlertStore.inMemory()
        let alert = try Fixtures.alert(id: "0f3c0000-0000-0000-0000-000000000001", at: 30, complete: complete)
        try await store.commit(Fixtures.commit(alert, sinks: ["stdout/console", "webhook/ops"], now: 31))

        let expected = ["stdout/console", "webhook/ops"].map {
            Delivery(notification: OutgoingNotification(alert), sink: $0, status: .pending, attempts: 0, createdAt: Fixtures.time(31),
                     nextAttemptAt: Fixtures.time(31))
        }
        #expect(try await store.alerts(since: nil) == [AlertRecord(alert: alert, deliveries: expected)])
        #expect(try await store.pendingDeliveries(dueBy: Fixtures.time(31), limit: 10) == expected)
        if !complete {
            let stored = try #require(try await store.alerts(since: nil).first?.alert)
            #expect(stored.provider == nil && stored.currency == nil && stored.base == nil)
            #expect(stored.change == nil && stored.direction == nil)
        }
    }

    @Test func alertWithoutSinksIsLoggedWithoutDeliveries() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let alert = try Fixtures.alert(id: "a1")
        try await store.commit(Fixtures.commit(alert, sinks: []))
        #expect(try await store.alerts(since: nil) == [AlertRecord(alert: alert, deliveries: [])])
        #expect(try await store.nextPendingAttempt() == nil)
    }

    @Test func textIsStoredVerbatim() async throws {
        let store = try SQLiteAlertStore.inMemory()
        var alert = try Fixtures.alert(id: "ünïcødé-'quote'-\"double\"")
        alert.message = "AAPL 225.70 USD: above 200 — 'quoted' \"text\"; DROP TABLE alert; 📈\nsecond line"
        try await store.commit(Fixtures.commit(alert))
        #expect(try await store.alerts(since: nil).map(\.alert) == [alert])
    }
}
