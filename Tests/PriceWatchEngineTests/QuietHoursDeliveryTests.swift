import Foundation
import PriceWatchCore
import PriceWatchServices
import PriceWatchStore
import PriceWatchTestKit
import Testing

/// Quiet hours over a real SQLite outbox with manual clocks: alerts that fall due during a
/// sink's quiet hours are held (pending, no attempt counted) and go out as one message when
/// they end; an urgent rule's alert goes at once; a restart during quiet hours loses nothing.
@Suite struct QuietHoursDeliveryTests {
    typealias F = EngineFixtures
    /// 00:00 to 07:00 UTC; the harnesses start at 00:16:40 UTC (1,000 s), inside it.
    static let quiet: QuietHours = {
        guard let quiet = try? QuietHours(parsing: "00:00-07:00", timeZone: CalendarSchedule.utc) else { preconditionFailure("bad test window") }
        return quiet
    }()
    static let release = Timestamp(seconds: 7 * 3600)

    struct Life {
        let store: SQLiteAlertStore
        let clock = ManualClock()
        let wall: ManualWallClock
        let doorbell = Doorbell()
        let sinks: SinkRegistry
        let dispatcher: DeliveryDispatcher<ManualClock>

        init(store: SQLiteAlertStore, sink: RecordingSink, start: Timestamp, urgent: Set<String> = [], maximumAge: Int64? = nil) {
            self.store = store
            wall = ManualWallClock(start)
            sinks = SinkRegistry(["recorder": sink], settings: ["recorder": SinkDeliverySettings(maximumAge: maximumAge,
                                                                                                quietHours: QuietHoursDeliveryTests.quiet)])
            dispatcher = DeliveryDispatcher(store: store, sinks: sinks, doorbell: doorbell, clock: clock, wallClock: wall.function,
                                            schedule: RetrySchedule(initialDelay: 1_000, maximumDelay: 60_000, maximumAge: 3_600_000, jitter: 0),
                                            logger: F.logger, urgentRules: { urgent })
        }

        func queue(_ rules: [String]) async throws -> [Alert] {
            let alerts = rules.enumerated().map { index, id in
                let quote = F.quote("AAPL", "2", at: Int64(index))
                return Alert(rule: F.rule(id, .above(F.decimal("1"))), quote: quote, provider: "feed", trigger: .init(price: quote.price))
            }
            try await store.commit(StoreCommit(provider: "feed", alerts: alerts.map { PendingAlert(alert: $0, sinks: ["recorder"]) }, now: wall.now))
            doorbell.ring()
            return alerts
        }

        func deliveries() async throws -> [Delivery] {
            try await store.alerts(since: nil).flatMap(\.deliveries)
        }

        /// Moves both clocks to `target` and wakes the dispatcher.
        func advance(to target: Timestamp) {
            let step = target.milliseconds - wall.now.milliseconds
            wall.advance(milliseconds: step)
            clock.advance(by: .milliseconds(step))
            doorbell.ring()
        }
    }

    static func waitForHeld(_ life: Life, _ count: Int) async throws {
        try await waitUntil("\(count) deliveries held until 07:00") {
            let held = try await life.deliveries().filter {
                $0.status == .pending && $0.nextAttemptAt == Self.release && $0.attempts == 0
                    && $0.lastError == "held for quiet hours until 1970-01-01T07:00:00Z"
            }
            return held.count == count
        }
    }

    @Test func alertsDuringQuietHoursAreHeldThenGoOutAsOneMessage() async throws {
        let sink = RecordingSink()
        let life = Life(store: try SQLiteAlertStore.inMemory(), sink: sink, start: Timestamp(seconds: 1_000))
        let alerts = try await life.queue(["a", "b", "c"])
        let task = Task { await life.dispatcher.run() }
        defer { task.cancel() }
        try await Self.waitForHeld(life, 3)
        try await life.clock.waitForSleepers(1)
        #expect(sink.attempts == 0, "nothing is sent during quiet hours")

        life.advance(to: Timestamp(seconds: 6 * 3600))
        try await life.clock.waitForSleepers(1)
        #expect(sink.attempts == 0, "still quiet an hour before the end")

        life.advance(to: Self.release)
        try await waitUntil("the held alerts delivered") { try await life.deliveries().allSatisfy { $0.status == .delivered } }
        #expect(sink.groups.map { $0.map(\.id) } == [alerts.map(\.id)], "one message, oldest first")
        #expect(sink.attempts == 1)
        #expect(try await life.deliveries().map(\.attempts) == [1, 1, 1], "holding counted no attempt")
    }

    /// A held alert ages from its release, through the retries after a failed release: with a
    /// `max_age` of ten minutes, seven hours held do not make it dead at its first retry.
    @Test func aFailedReleaseIsRetriedWithinMaxAgeCountedFromTheRelease() async throws {
        let sink = RecordingSink()
        let life = Life(store: try SQLiteAlertStore.inMemory(), sink: sink, start: Timestamp(seconds: 1_000), maximumAge: 600_000)
        let alerts = try await life.queue(["a", "b"])
        let task = Task { await life.dispatcher.run() }
        defer { task.cancel() }
        try await Self.waitForHeld(life, 2)
        try await life.clock.waitForSleepers(1)
        sink.failNext([SinkError(retryable: true, "503 from the receiver")])
        life.advance(to: Self.release)
        try await waitUntil("the failed release recorded as a retry") {
            try await life.deliveries().allSatisfy { $0.status == .pending && $0.attempts == 1 && $0.lastError == "503 from the receiver" }
        }
        let retry = try #require(try await life.deliveries().first?.nextAttemptAt)
        #expect(retry == Timestamp(milliseconds: Self.release.milliseconds + 1_000))
        try await life.clock.waitForSleepers(1)
        life.advance(to: retry)
        try await waitUntil("the retry delivered") { try await life.deliveries().allSatisfy { $0.status == .delivered } }
        #expect(sink.delivered.map(\.id).sorted() == alerts.map(\.id).sorted(), "not dead-lettered: aged from 07:00, not from 00:16")
        #expect(try await life.deliveries().map(\.heldUntil) == [Self.release, Self.release])
    }

    @Test func anUrgentRulesAlertIsNotHeld() async throws {
        let sink = RecordingSink()
        let life = Life(store: try SQLiteAlertStore.inMemory(), sink: sink, start: Timestamp(seconds: 1_000), urgent: ["pager"])
        let alerts = try await life.queue(["pager", "calm"])
        let task = Task { await life.dispatcher.run() }
        defer { task.cancel() }
        try await waitUntil("the urgent alert delivered") { sink.delivered.map(\.id) == [alerts[0].id] }
        try await Self.waitForHeld(life, 1)
        #expect(sink.attempts == 1)
    }

    @Test func aRestartDuringQuietHoursLosesNothingAndReleasesAtTheEnd() async throws {
        let path = try F.temporaryDirectory() + "/state.db"
        let sink = RecordingSink()
        let before = Life(store: try SQLiteAlertStore.open(path: path), sink: sink, start: Timestamp(seconds: 1_000))
        let alerts = try await before.queue(["a", "b"])
        let first = Task { await before.dispatcher.run() }
        try await Self.waitForHeld(before, 2)
        first.cancel()
        await first.value
        try before.store.close()

        let after = Life(store: try SQLiteAlertStore.open(path: path), sink: sink, start: Timestamp(seconds: 3_600))
        defer { try? after.store.close() }
        let second = Task { await after.dispatcher.run() }
        defer { second.cancel() }
        try await after.clock.waitForSleepers(1)
        #expect(sink.attempts == 0)
        after.advance(to: Self.release)
        try await waitUntil("the held alerts delivered after the restart") {
            try await after.deliveries().allSatisfy { $0.status == .delivered }
        }
        #expect(sink.groups.map { $0.map(\.id) } == [alerts.map(\.id)])
    }
}
