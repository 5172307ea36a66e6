import PriceWatchCore
import PriceWatchServices
import PriceWatchTestKit
import Testing

/// The scheduler on a manual clock: fixed rate without drift, skipped ticks on overrun, and
/// independence between providers. No sleeps: time moves only when the test moves it.
@Suite struct ProviderPollerTests {
    typealias F = EngineFixtures

    /// The scheduler needs no evaluator and no store: a consumer that keeps the polls. (`rules`
    /// say what the test is about; the consumer does not evaluate them.)
    static func consumer(rules: [Rule]) -> QuoteStreamTests.RecordingConsumer {
        QuoteStreamTests.RecordingConsumer()
    }

    /// Waits until `provider` has been called `count` times.
    static func waitForCalls(_ provider: ScriptedProvider, _ count: Int) async throws {
        try await waitUntil("\(count) call(s) of provider \(provider.name) (\(provider.calls.count) so far)") {
            provider.calls.count >= count
        }
    }

    @Test func pollsImmediatelyThenEveryIntervalWithoutDrift() async throws {
        let clock = ManualClock()
        let provider = ScriptedProvider(name: "fast")
        let consumer = Self.consumer(rules: [F.rule("r", .above(F.decimal("1")), provider: "fast")])
        let poller = ProviderPoller(provider: provider, symbols: ["AAPL"], interval: .seconds(60), consumers: [consumer],
                                    clock: clock, wallClock: ManualWallClock().function, logger: F.logger)
        let task = Task { await poller.run() }
        defer { task.cancel() }
        try await Self.waitForCalls(provider, 1)
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(59))
        #expect(provider.calls.count == 1, "not before the interval")
        clock.advance(by: .seconds(1))
        try await Self.waitForCalls(provider, 2)
        // Ticks stay on the grid start + k * interval: the next one is at 120 s.
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(60))
        try await Self.waitForCalls(provider, 3)
        #expect(provider.calls.allSatisfy { $0 == ["AAPL"] })
    }

    @Test func anOverrunningPollSkipsMissedTicksInsteadOfBursting() async throws {
        let clock = ManualClock()
        let provider = ScriptedProvider(name: "slow")
        let consumer = Self.consumer(rules: [F.rule("r", .above(F.decimal("1")), provider: "slow")])
        let poller = ProviderPoller(provider: provider, symbols: ["AAPL"], interval: .seconds(10), consumers: [consumer],
                                    clock: clock, wallClock: ManualWallClock().function, logger: F.logger)
        provider.hang()
        let task = Task { await poller.run() }
        defer { task.cancel() }
        try await Self.waitForCalls(provider, 1)
        clock.advance(by: .seconds(35)) // the poll takes 35 s: ticks at 10, 20, 30 are missed
        provider.release()
        try await clock.waitForSleepers(1)
        #expect(provider.calls.count == 1, "no burst of catch-up polls")
        clock.advance(by: .seconds(4)) // 39 s: still before the next grid tick at 40 s
        #expect(provider.calls.count == 1)
        clock.advance(by: .seconds(1))
        try await Self.waitForCalls(provider, 2)
    }

    @Test func oneProvidersSlownessNeverDelaysAnother() async throws {
        let clock = ManualClock()
        let slow = ScriptedProvider(name: "slow")
        let fast = ScriptedProvider(name: "fast")
        let consumer = Self.consumer(rules: [
            F.rule("s", .above(F.decimal("1")), provider: "slow"), F.rule("f", .above(F.decimal("1")), provider: "fast"),
        ])
        slow.hang()
        let pollers = [slow, fast].map { provider in
            ProviderPoller(provider: provider, symbols: ["AAPL"], interval: .seconds(10), consumers: [consumer],
                           clock: clock, wallClock: ManualWallClock().function, logger: F.logger)
        }
        let task = Task { await withTaskGroup(of: Void.self) { group in for poller in pollers { group.addTask { await poller.run() } } } }
        defer {
            slow.release()
            task.cancel()
        }
        try await Self.waitForCalls(slow, 1)
        for round in 1...3 {
            try await clock.waitForSleepers(1)
            clock.advance(by: .seconds(10))
            try await Self.waitForCalls(fast, round + 1)
        }
        #expect(slow.calls.count == 1, "the slow provider is still in its first poll")
    }

    @Test func symbolsAreFetchedInBatchesOfTheProvidersSize() async throws {
        let clock = ManualClock()
        let provider = ScriptedProvider(name: "fast", batchSize: 2)
        let consumer = Self.consumer(rules: [F.rule("r", .above(F.decimal("1")), symbols: ["A", "B", "C", "D", "E"], provider: "fast")])
        let poller = ProviderPoller(provider: provider, symbols: ["A", "B", "C", "D", "E"], interval: .seconds(60),
                                    consumers: [consumer], clock: clock, wallClock: ManualWallClock().function, logger: F.logger)
        await poller.pollOnce()
        #expect(provider.calls == [["A", "B"], ["C", "D"], ["E"]])
        #expect(consumer.received.count == 1, "the batches are one poll for the consumers")
    }
}
