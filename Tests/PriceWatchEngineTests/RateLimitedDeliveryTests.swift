import Foundation
import PriceWatchCore
import PriceWatchServices
import PriceWatchStore
import PriceWatchTestKit
import Testing

/// A sink's `rate_limit` over a real SQLite outbox with manual clocks: the window's attempts go
/// out, the rest stay pending (no attempt counted, nothing sleeps) and go as the window moves
/// on; other sinks are not held back.
@Suite struct RateLimitedDeliveryTests {
    typealias F = EngineFixtures

    @Test func aFullWindowLeavesTheRestPendingUntilItMovesOn() async throws {
        let limited = RecordingSink()
        let free = RecordingSink()
        let store = try SQLiteAlertStore.inMemory()
        let clock = ManualClock()
        let wall = ManualWallClock(Timestamp(seconds: 1_000))
        let doorbell = Doorbell()
        let rate = try #require(DeliveryRateLimit("2/min"))
        let sinks = SinkRegistry(["limited": limited, "free": free],
                                 settings: ["limited": SinkDeliverySettings(concurrency: 4, rateLimit: rate)])
        let dispatcher = DeliveryDispatcher(store: store, sinks: sinks, doorbell: doorbell, clock: clock, wallClock: wall.function,
                                            schedule: RetrySchedule(initialDelay: 1_000, maximumDelay: 60_000, maximumAge: 3_600_000, jitter: 0),
                                            logger: F.logger)
        let alerts = (0..<5).map { index in
            let quote = F.quote("AAPL", "2", at: Int64(index))
            return Alert(rule: F.rule("r\(index)", .above(F.decimal("1"))), quote: quote, provider: "feed", trigger: .init(price: quote.price))
        }
        try await store.commit(StoreCommit(provider: "feed", alerts: alerts.map { PendingAlert(alert: $0, sinks: ["limited", "free"]) }, now: wall.now))
        let task = Task { await dispatcher.run() }
        defer { task.cancel() }

        func delivered(to sink: String) async throws -> Int {
            try await store.alerts(since: nil).flatMap(\.deliveries).filter { $0.sink == sink && $0.status == .delivered }.count
        }
        try await waitUntil("all five delivered to the sink without a limit") { try await delivered(to: "free") == 5 }
        try await waitUntil("two delivered to the limited sink") { try await delivered(to: "limited") == 2 }
        try await clock.waitForSleepers(1)
        #expect(limited.attempts == 2, "the window holds two attempts")
        let waiting = try await store.alerts(since: nil).flatMap(\.deliveries).filter { $0.sink == "limited" && $0.status == .pending }
        #expect(waiting.map(\.attempts) == [0, 0, 0], "waiting for the window is not an attempt")

        // Half a minute: still full.
        wall.advance(milliseconds: 30_000)
        clock.advance(by: .seconds(30))
        doorbell.ring()
        try await clock.waitForSleepers(1)
        #expect(limited.attempts == 2)

        // A minute after the first two: room for two more, then the last a minute later.
        wall.advance(milliseconds: 30_000)
        clock.advance(by: .seconds(30))
        try await waitUntil("four delivered to the limited sink") { try await delivered(to: "limited") == 4 }
        try await clock.waitForSleepers(1)
        #expect(limited.attempts == 4)
        wall.advance(milliseconds: 60_000)
        clock.advance(by: .seconds(60))
        try await waitUntil("all five delivered to the limited sink") { try await delivered(to: "limited") == 5 }
        #expect(limited.attempts == 5)
        #expect(free.attempts == 5)
    }
}
