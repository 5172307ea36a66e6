import PriceWatchCore
import PriceWatchApp
import PriceWatchServices
import PriceWatchProviders
import PriceWatchStore
import PriceWatchTestKit
import Testing

/// Restarts and reloads never change which alerts fire, with quote times behind the wall clock
/// (a delayed feed, catching up after downtime, a replay): the real recorded series go through
/// the daemon's evaluator and a file-backed store, restarted and reloaded at random points, and
/// must give exactly the alerts of the backtest (the uninterrupted run) over the same data.
@Suite struct WindowBaselineRestartTests {
    typealias F = EngineFixtures

    /// How far quote times lag the wall clock.
    static let lag: Int64 = 30 * 60 * 1000

    struct Fired: Hashable, CustomStringConvertible {
        var rule: String
        var symbol: String
        var time: Timestamp
        var price: ExactDecimal
        var description: String { "\(rule) \(symbol) \(time.rfc3339) \(price)" }
    }


    static func series(_ name: String) throws -> PriceSeries {
        let (series, diagnostics) = PriceSeriesFile.read(path: RepositoryFiles.path("demo/data/\(name)"))
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        return try #require(series)
    }

    static func backtest(_ rules: [Rule], _ series: PriceSeries) -> [Fired] {
        var fired: [Fired] = []
        _ = Backtester.run(rules: rules, series: series) { alert in
            fired.append(Fired(rule: alert.rule, symbol: alert.symbol, time: alert.time, price: alert.price))
        }
        return fired
    }

    /// Runs every row of `series` through the daemon's evaluator, one poll per row, with a
    /// restart (a new evaluator over the reopened file) or a reload (the same configuration
    /// again) before a row with the given odds. Returns the alerts committed, in order, and how
    /// often each interruption happened.
    static func daemon(_ rules: [Rule], _ series: PriceSeries, seed: UInt64, restartPercent: UInt64,
                       reloadPercent: UInt64, lag: Int64 = WindowBaselineRestartTests.lag,
                       retention: RuleDuration? = nil) async throws -> (alerts: [Fired], restarts: Int, reloads: Int) {
        let directory = try F.temporaryDirectory()
        let path = directory + "/state.db"
        var configuration = F.configuration(rules: rules.map { rule in
            var rule = rule
            rule.provider = "feed"
            return rule
        }, statePath: path)
        // As the loader does: history is kept at least as long as the longest window.
        configuration.retention = max(configuration.retention, rules.compactMap(\.window).max() ?? configuration.retention)
        // Retention runs on the wall clock: quotes lagging by L need the window plus L.
        if let retention { configuration.retention = max(configuration.retention, retention) }
        var random = SeededRandom(seed: seed)
        var store = try SQLiteAlertStore.open(path: path)
        let order = series.timeOrder
        let first = order.first.map { series.quote(at: $0).time.milliseconds } ?? 0
        var evaluator = try await RuleEvaluator(configuration: configuration, store: store, doorbell: Doorbell(),
                                                logger: F.logger, now: Timestamp(milliseconds: first + lag))
        var restarts = 0, reloads = 0
        // From each poll's report: the alert log itself is pruned by the wall clock, which here
        // runs through ten years.
        var fired: [Fired] = []
        for row in order {
            let quote = series.quote(at: row)
            let now = Timestamp(milliseconds: quote.time.milliseconds + lag)
            if random.chance(restartPercent) {
                try store.close()
                store = try SQLiteAlertStore.open(path: path)
                evaluator = try await RuleEvaluator(configuration: configuration, store: store, doorbell: Doorbell(),
                                                    logger: F.logger, now: now)
                restarts += 1
            } else if random.chance(reloadPercent) {
                try await evaluator.reconfigure(configuration, now: now)
                reloads += 1
            }
            let report = try await evaluator.ingest(provider: "feed", results: [quote.symbol: .success(quote)], now: now)
            fired += report.alerts.map { Fired(rule: $0.rule, symbol: $0.symbol, time: $0.time, price: $0.price) }
        }
        try store.close()
        return (fired, restarts, reloads)
    }

    /// Alerts in firing order, as the backtest gives them.
    static func expectSameAlerts(_ daemon: [Fired], _ backtest: [Fired], seed: UInt64) {
        let missing = backtest.filter { !daemon.contains($0) }
        let extra = daemon.filter { !backtest.contains($0) }
        #expect(missing.isEmpty && extra.isEmpty,
                "seed \(seed): \(missing.count) alert(s) missing: \(missing.prefix(5)); \(extra.count) extra: \(extra.prefix(5))")
        #expect(daemon == backtest, "seed \(seed): the alerts differ in order")
    }

    /// The AAPL minute session with the demo rules (5-minute and 30-minute windows).
    @Test(arguments: [1, 2, 3] as [UInt64])
    func minuteSessionWithRestartsAndReloadsGivesTheBacktestAlerts(seed: UInt64) async throws {
        let rules = try BacktestGoldenTests.demoRules()
        let series = try Self.series("aapl-1m-2024-10-02.csv")
        let expected = Self.backtest(rules, series)
        #expect(expected.contains { $0.rule.hasSuffix("-5m") || $0.rule.hasSuffix("-30m") },
                "the data must fire window rules for this test to mean anything")
        let run = try await Self.daemon(rules, series, seed: seed, restartPercent: 8, reloadPercent: 8)
        #expect(run.restarts > 10 && run.reloads > 10, "seed \(seed): \(run.restarts) restarts, \(run.reloads) reloads")
        Self.expectSameAlerts(run.alerts, expected, seed: seed)
    }

    /// Five stocks, monthly, with 30-day and 90-day windows, replayed 45 days behind the wall
    /// clock (catching up after a long downtime): restarts and reloads before many months.
    @Test(arguments: [7, 8] as [UInt64])
    func monthlyStocksWithRestartsAndReloadsGiveTheBacktestAlerts(seed: UInt64) async throws {
        let all = ["AAPL", "AMZN", "GOOG", "IBM", "MSFT"]
        let rules = [
            Rule(id: "fall-20pct-90d", symbols: all, condition: .fall(try ExactDecimal(parsing: "20")),
                 baseline: .window(try RuleDuration(parsing: "90d")), rearm: try ExactDecimal(parsing: "10")),
            Rule(id: "rise-25pct-30d", symbols: all, condition: .rise(try ExactDecimal(parsing: "25")),
                 baseline: .window(try RuleDuration(parsing: "30d"))),
            Rule(id: "ibm-below-80", symbols: ["IBM"], condition: .below(try ExactDecimal(parsing: "80")),
                 rearm: try ExactDecimal(parsing: "5")),
        ]
        let series = try Self.series("stocks-monthly-2000-2010.csv")
        let expected = Self.backtest(rules, series)
        #expect(expected.filter { $0.rule.hasSuffix("d") }.count > 20)
        let run = try await Self.daemon(rules, series, seed: seed, restartPercent: 20, reloadPercent: 20,
                                        lag: 45 * 86_400_000, retention: try RuleDuration(parsing: "200d"))
        #expect(run.restarts > 50 && run.reloads > 30, "seed \(seed): \(run.restarts) restarts, \(run.reloads) reloads")
        Self.expectSameAlerts(run.alerts, expected, seed: seed)
    }
}
