import PriceWatchCore
import PriceWatchServices
import PriceWatchStore
import PriceWatchTestKit
import Testing

/// Portfolio rules in the evaluator, against a real SQLite store: the alert and its state go
/// in the poll's transaction, holdings polled only for a portfolio are recorded in the history,
/// and a restart over the same database fires nothing twice.
@Suite struct PortfolioRuleEvaluatorTests {
    typealias F = EngineFixtures

    static let day: CivilDate = {
        guard let date = CivilDate(year: 2024, month: 1, day: 2) else { preconditionFailure("bad date in a test") }
        return date
    }()

    static func configuration(statePath: String = ":memory:") -> Configuration {
        let target = PortfolioTarget(portfolio: "retirement", measure: .value)
        var rule = Rule(id: "retirement-low", symbols: [target.subject], provider: "feed", condition: .below(F.decimal("2300")),
                        notify: ["recorder"])
        rule.portfolio = target
        var configuration = F.configuration(rules: [F.rule("msft-1000", .above(F.decimal("1000")), symbols: ["MSFT"])], statePath: statePath)
        configuration.portfolios = [Portfolio(name: "retirement", currency: "EUR", cash: ["EUR": F.decimal("1000")], lots: [
            PortfolioLot(symbol: "AAPL", quantity: F.decimal("10"), price: F.decimal("150"), currency: "USD", date: Self.day, fees: .zero),
        ])]
        configuration.portfolioRules = [rule]
        return configuration
    }

    @Test func aPortfolioAlertIsCommittedWithThePollAndNeverFiresTwiceAcrossARestart() async throws {
        let directory = try F.temporaryDirectory()
        let path = directory + "/state.db"
        let config = Self.configuration(statePath: path)
        #expect(config.symbols(for: "feed") == ["AAPL", "MSFT", "USDEUR=X"])
        let rate = Quote(symbol: "USDEUR=X", price: F.decimal("0.9"), time: Timestamp(seconds: 900), currency: "EUR")
        do {
            let store = try SQLiteAlertStore.open(path: path)
            let evaluator = try await RuleEvaluator(configuration: config, store: store, doorbell: Doorbell(), logger: F.logger,
                                                    now: Timestamp(seconds: 1000))
            // 10 × 150 × 0.9 + 1000 = 2350 EUR: above the level.
            let first = try await evaluator.ingest(provider: "feed", results: F.ok(F.quote("AAPL", "150", at: 900), rate, F.quote("MSFT", "400", at: 900)),
                                                   now: Timestamp(seconds: 1000))
            #expect(first.accepted == 3)
            #expect(first.alerts.isEmpty)
            // 140: 2260 EUR.
            let second = try await evaluator.ingest(provider: "feed", results: F.ok(F.quote("AAPL", "140", at: 960)), now: Timestamp(seconds: 1000))
            #expect(second.alerts.map(\.rule) == ["retirement-low"])
            #expect(second.alerts.first?.price == F.decimal("2260"))
            #expect(second.alerts.first?.message == "@retirement:value 2260.00 EUR: value below 2300 (rule retirement-low)")
            let stored = try await store.quotes(provider: "feed", symbol: "AAPL")
            #expect(stored.map(\.time) == [Timestamp(seconds: 900), Timestamp(seconds: 960)], "holdings polled for a portfolio are history")
            try store.close()
        }
        let store = try SQLiteAlertStore.open(path: path)
        let evaluator = try await RuleEvaluator(configuration: config, store: store, doorbell: Doorbell(), logger: F.logger,
                                                now: Timestamp(seconds: 2000))
        // A replay from the first row after the restart: the portfolio starts from the stored
        // quotes, so older ones are repeats for it too; the old crossing (back above, then below
        // again) is not evaluated, let alone fired, a second time.
        for (price, time) in [("150", Int64(900)), ("140", Int64(960))] {
            let replayed = try await evaluator.ingest(provider: "feed", results: F.ok(F.quote("AAPL", price, at: time), rate),
                                                      now: Timestamp(seconds: 2000))
            #expect(replayed.accepted == 0 && replayed.alerts.isEmpty, "replayed row at \(time)")
        }
        // The first new quote (still below) does not fire again either.
        let after = try await evaluator.ingest(provider: "feed", results: F.ok(F.quote("AAPL", "139", at: 1900), rate), now: Timestamp(seconds: 2000))
        #expect(after.alerts.isEmpty)
        let log = try await store.alerts(since: nil)
        #expect(log.map(\.alert.rule) == ["retirement-low"])
        #expect(log.first?.deliveries.map(\.sink) == ["recorder"])
        let states = try await store.ruleStates()
        #expect(states[RuleStateKey(rule: "retirement-low", symbol: "@retirement:value")]?.state.phase == .fired)
    }
}
