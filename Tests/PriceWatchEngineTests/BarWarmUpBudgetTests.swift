import Foundation
import PriceWatchCore
@testable import PriceWatchServices
import PriceWatchStore
import PriceWatchTestKit
import Synchronization
import Testing

/// The warm-up's history requests are budgeted like polls: each waits for the provider's rate
/// limit, a transient failure is retried with the polls' backoff (`Retry-After` honoured), and
/// a provider that keeps failing (or has no chart endpoint) hands the request to its configured
/// fallbacks, in order. Over a real SQLite store and the real evaluator.
@Suite struct BarWarmUpBudgetTests {
    typealias F = EngineFixtures

    /// A chart endpoint that fails with the given errors first, then answers with `candles`.
    final class ScriptedChart: PriceChartProviding {
        let failures: Mutex<[ProviderError]>
        let candles: [Candle]
        let calls = Mutex(0)
        init(failures: [ProviderError], candles: [Candle]) {
            self.failures = Mutex(failures)
            self.candles = candles
        }
        func chart(symbol: String, interval: CandleInterval, from: Timestamp, to: Timestamp) async throws(ProviderError) -> PriceChart {
            calls.withLock { $0 += 1 }
            if let failure = failures.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { throw failure }
            return PriceChart(symbol: symbol, candles: candles)
        }
    }

    /// What the warm-up waited for: rate-limit acquisitions by provider, and retry delays.
    final class Budget: Sendable {
        let acquired = Mutex<[String]>([])
        let slept = Mutex<[Duration]>([])
    }

    static let now = Timestamp(seconds: 1_727_900_000)

    /// Ten one-minute candles ending before `now`.
    static let candles = (0..<10).map { index in
        let price = F.decimal("\(100 + index)")
        return Candle(time: Timestamp(seconds: (now.seconds / 60 - 10 + Int64(index)) * 60), interval: .oneMinute,
                      open: price, high: price, low: price, close: price)
    }

    static func setUp(charts: [String: ScriptedChart], budget: Budget) async throws -> (BarWarmUp, RuleEvaluator, SQLiteAlertStore) {
        var rule = F.rule("aapl-over-sma", .above(F.decimal("0")))
        rule.series = SeriesCondition(timeframe: try #require(Timeframe("1m")), of: .price, level: try SeriesSpec(parsing: "sma(3)"))
        var configuration = F.configuration(rules: [rule], providers: ["feed", "backup", "spare"])
        configuration.providers[0].fallback = ["backup", "spare"]
        let store = try SQLiteAlertStore.open(path: try F.temporaryDirectory() + "/state.db")
        let evaluator = try await RuleEvaluator(configuration: configuration, store: store, doorbell: Doorbell(), logger: F.logger,
                                                now: Self.now, priceHistory: store)
        let endpoints: [String: any PriceChartProviding] = charts
        var backoff = PollBackoff()
        backoff.jitter = 0
        let warmUp = BarWarmUp(evaluator: evaluator, store: store,
                               initial: ServiceSetup(configuration: configuration, providers: [:], sinks: [:]),
                               chartEndpoints: { _ in endpoints },
                               acquire: { name in budget.acquired.withLock { $0.append(name) } },
                               sleep: { delay in budget.slept.withLock { $0.append(delay) } },
                               backoff: backoff, wallClock: { Self.now }, logger: F.logger)
        return (warmUp, evaluator, store)
    }

    @Test func aTransientFailureIsRetriedUnderTheRateLimitWithRetryAfter() async throws {
        let feed = ScriptedChart(failures: [ProviderError(.rateLimited, "429", retryAfterSeconds: 7),
                                            ProviderError(.transient, "503")], candles: Self.candles)
        let budget = Budget()
        let (warmUp, evaluator, store) = try await Self.setUp(charts: ["feed": feed], budget: budget)
        defer { try? store.close() }
        #expect(await evaluator.warmUpRequests().count == 1)
        await warmUp.pass()
        // Three attempts, each under the feed's rate limit; the first wait is the Retry-After,
        // the second the backoff's doubled delay.
        #expect(feed.calls.withLock { $0 } == 3)
        #expect(budget.acquired.withLock { $0 } == ["feed", "feed", "feed"])
        #expect(budget.slept.withLock { $0 } == [.seconds(7), .seconds(2)])
        #expect(await evaluator.warmUpRequests().isEmpty, "the fetched bars did not warm the rule up")
        #expect(try await store.candles(symbol: "AAPL", interval: .oneMinute, from: Timestamp(seconds: 0), to: Self.now).count == 10)
    }

    @Test func aProviderThatKeepsFailingHandsTheRequestToItsFallbacksInOrder() async throws {
        let feed = ScriptedChart(failures: [ProviderError(.permanent, "401")], candles: Self.candles)
        let backup = ScriptedChart(failures: Array(repeating: ProviderError(.transient, "timeout"), count: 5), candles: Self.candles)
        let spare = ScriptedChart(failures: [], candles: Self.candles)
        let budget = Budget()
        let (warmUp, evaluator, store) = try await Self.setUp(charts: ["feed": feed, "backup": backup, "spare": spare], budget: budget)
        defer { try? store.close() }
        await warmUp.pass()
        // A permanent answer is not retried; the backup is tried the backoff's three times; the
        // spare answers.
        #expect(feed.calls.withLock { $0 } == 1)
        #expect(backup.calls.withLock { $0 } == 3)
        #expect(spare.calls.withLock { $0 } == 1)
        #expect(budget.acquired.withLock { $0 } == ["feed", "backup", "backup", "backup", "spare"])
        #expect(await evaluator.warmUpRequests().isEmpty)
    }

    @Test func withoutAnyChartEndpointNothingIsAsked() async throws {
        let budget = Budget()
        let (warmUp, evaluator, store) = try await Self.setUp(charts: [:], budget: budget)
        defer { try? store.close() }
        await warmUp.pass()
        #expect(budget.acquired.withLock { $0 }.isEmpty)
        #expect(await evaluator.warmUpRequests().count == 1)
    }
}
