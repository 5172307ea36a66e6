import PriceWatchCore
import PriceWatchServices
import Synchronization
import Testing

/// The consumer that feeds prices and rule states to the sinks that mirror them (the mqtt
/// sink): found behind the metrics wrapper, told the configuration's symbols and rules, the
/// poll's prices and each rule's stored state; other sinks are left alone.
@Suite struct MarketStateConsumerTests {
    /// A sink that records what it was told.
    final class RecordingPublisher: NotificationSink, MarketStatePublisher {
        struct Calls {
            var watched: [([String], [String])] = []
            var prices: [[Quote]] = []
            var states: [[String: Bool]] = []
        }

        let identity = "mqtt/recording"
        let calls = Mutex(Calls())

        func deliver(_ alert: Alert) async throws(SinkError) {}
        func watch(symbols: [String], rules: [String]) { calls.withLock { $0.watched.append((symbols, rules)) } }
        func publish(prices quotes: [Quote]) { calls.withLock { $0.prices.append(quotes) } }
        func publish(ruleStates: [String: Bool]) { calls.withLock { $0.states.append(ruleStates) } }
    }

    /// Rule states as the evaluator stored them.
    struct FixedStates: RuleStateStore {
        let states: [RuleStateKey: StoredRuleState]
        func ruleStates() async throws -> [RuleStateKey: StoredRuleState] { states }
        func commit(_ commit: StoreCommit) async throws {}
    }

    struct PlainSink: NotificationSink {
        let identity = "stdout/plain"
        func deliver(_ alert: Alert) async throws(SinkError) {}
    }

    @Test func publishersGetSymbolsRulesPricesAndStatesOthersNothing() async throws {
        let publisher = RecordingPublisher()
        let registry = SinkRegistry(["home": MeasuredNotificationSink(publisher, name: "home", metrics: .disabled), "plain": PlainSink()])
        let configuration = EngineFixtures.configuration(rules: [
            EngineFixtures.rule("aapl-200", .above(EngineFixtures.decimal("200")), symbols: ["AAPL", "MSFT"]),
            EngineFixtures.rule("btc-100k", .crosses(EngineFixtures.decimal("100000")), symbols: ["BTC-USD"]),
        ])
        let states = FixedStates(states: [
            RuleStateKey(rule: "aapl-200", symbol: "MSFT"): StoredRuleState(fingerprint: "f", state: RuleState(phase: .fired)),
            RuleStateKey(rule: "aapl-200", symbol: "AAPL"): StoredRuleState(fingerprint: "f", state: RuleState(phase: .armed)),
            RuleStateKey(rule: "removed", symbol: "AAPL"): StoredRuleState(fingerprint: "f", state: RuleState(phase: .fired)),
        ])
        let consumer = MarketStateConsumer(sinks: registry, states: states, configuration: { configuration })
        let quote = EngineFixtures.quote("AAPL", "226.5", at: 1_727_875_800)
        let receipt = await consumer.receive(PolledQuotes(provider: "feed", results: ["AAPL": .success(quote)], time: quote.time))

        #expect(receipt == .none)
        let calls = publisher.calls.withLock { $0 }
        #expect(calls.watched.count == 1)
        #expect(calls.watched.first?.0 == ["AAPL", "BTC-USD", "MSFT"])
        #expect(calls.watched.first?.1 == ["aapl-200", "btc-100k"])
        #expect(calls.prices == [[quote]])
        #expect(calls.states == [["aapl-200": true, "btc-100k": false]])
    }
}
