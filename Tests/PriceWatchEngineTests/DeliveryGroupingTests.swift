import PriceWatchCore
import PriceWatchServices
import PriceWatchStore
import PriceWatchTestKit
import Testing

/// The dispatcher's per-sink settings over a real SQLite outbox: grouping (`group_wait`),
/// `concurrency`, `max_age`, per-sink reads under a backlog, and shutdown taking nothing new.
@Suite struct DeliveryGroupingTests {
    typealias F = EngineFixtures
    typealias Harness = DeliveryDispatcherTests.Harness

    static func harness(_ sinks: [String: any NotificationSink], settings: [String: SinkDeliverySettings]) throws -> Harness {
        try Harness(sinks: sinks, settings: settings)
    }

    @Test func alertsWithinTheGroupWaitGoOutAsOneMessage() async throws {
        let sink = RecordingSink()
        let harness = try Self.harness(["recorder": sink], settings: ["recorder": SinkDeliverySettings(groupWait: 30_000)])
        let task = Task { await harness.dispatcher.run() }
        defer { task.cancel() }
        var alerts: [Alert] = []
        for second in 0..<20 {
            alerts += try await harness.queue(1, to: ["recorder"], startingAt: second)
            if second.isMultiple(of: 2) { harness.wall.advance(seconds: 1) }
        }
        // The group of the first alert closes 30 s after it was queued: the dispatcher sleeps
        // until then and sends nothing before.
        try await harness.clock.waitForSleepers(1)
        #expect(sink.attempts == 0)
        harness.wall.advance(seconds: 20)
        harness.clock.advance(by: .seconds(30))
        try await harness.waitUntilStatuses { $0 == Array(repeating: .delivered, count: 20) }
        #expect(sink.groups.map { $0.map(\.id) } == [alerts.map(\.id)], "one group, oldest first, each alert with its id")
        #expect(sink.attempts == 1)
    }

    @Test func aFailedGroupIsRetriedWholeWithOneOutcomeForEveryAlert() async throws {
        let sink = RecordingSink()
        sink.failNext([SinkError(retryable: true, "HTTP 503")])
        let harness = try Self.harness(["recorder": sink], settings: ["recorder": SinkDeliverySettings(groupWait: 5_000)])
        _ = try await harness.queue(3, to: ["recorder"])
        harness.wall.advance(seconds: 5)
        let task = Task { await harness.dispatcher.run() }
        defer { task.cancel() }
        try await waitForAttempts(sink, 1)
        try await harness.waitUntilDeliveries("one attempt recorded on every delivery") { $0.allSatisfy { $0.attempts == 1 } }
        let deliveries = try await harness.store.alerts(since: nil).flatMap(\.deliveries)
        #expect(deliveries.map(\.attempts) == [1, 1, 1])
        #expect(Set(deliveries.map(\.nextAttemptAt)) == [Timestamp(seconds: 1_006)])
        #expect(Set(deliveries.map(\.lastError)) == ["HTTP 503"])
        harness.wall.advance(seconds: 1)
        harness.doorbell.ring()
        try await harness.waitUntilStatuses { $0 == [.delivered, .delivered, .delivered] }
        #expect(sink.groups.count == 1)
        #expect(sink.attempts == 2)
    }

    @Test func theSinksConcurrencySettingLimitsDeliveriesInFlight() async throws {
        let sink = RecordingSink()
        sink.block()
        let harness = try Self.harness(["recorder": sink], settings: ["recorder": SinkDeliverySettings(concurrency: 1)])
        _ = try await harness.queue(3, to: ["recorder"])
        let task = Task { await harness.dispatcher.run() }
        defer {
            sink.unblock()
            task.cancel()
        }
        try await waitForAttempts(sink, 1)
        for _ in 0..<1_000 { await Task.yield() }
        #expect(sink.attempts == 1)
        sink.unblock()
        try await harness.waitUntilStatuses { $0 == [.delivered, .delivered, .delivered] }
    }

    @Test func theSinksMaxAgeDecidesWhenRetriesStop() async throws {
        let sink = RecordingSink()
        sink.failNext([SinkError(retryable: true, "timeout"), SinkError(retryable: true, "timeout")])
        // The harness's schedule allows an hour; this sink's max_age allows 2 s.
        let harness = try Self.harness(["recorder": sink], settings: ["recorder": SinkDeliverySettings(maximumAge: 2_000)])
        _ = try await harness.queue(1, to: ["recorder"])
        let task = Task { await harness.dispatcher.run() }
        defer { task.cancel() }
        try await waitForAttempts(sink, 1)
        harness.wall.advance(seconds: 1)
        harness.doorbell.ring()
        try await harness.waitUntilStatuses { $0 == [.dead] }
        let dead = try await harness.store.alerts(since: nil).flatMap(\.deliveries)
        #expect(dead.first?.lastError?.hasPrefix("timeout (gave up after 2 attempt(s)") == true)
    }

    /// 300 deliveries for a sink that hangs never hide a healthy sink's deliveries.
    @Test func aBacklogOnOneSinkNeverStarvesAnother() async throws {
        let stuck = RecordingSink(name: "stuck")
        let healthy = RecordingSink(name: "healthy")
        stuck.block()
        let harness = try Self.harness(["stuck": stuck, "healthy": healthy], settings: [:])
        _ = try await harness.queue(300, to: ["stuck"])
        let later = try await harness.queue(2, to: ["healthy"], startingAt: 1_000)
        let task = Task { await harness.dispatcher.run() }
        defer {
            stuck.unblock()
            task.cancel()
        }
        try await waitUntil("2 deliveries on the healthy sink (\(healthy.delivered.count) so far)") { healthy.delivered.count >= 2 }
        #expect(healthy.delivered.map(\.id) == later.map(\.id))
        try await waitForAttempts(stuck, 4)
        for _ in 0..<1_000 { await Task.yield() }
        #expect(stuck.attempts == 4, "at most 4 in flight per sink by default")
    }

    @Test func afterStopNothingNewStartsAndWhatWasInFlightFinishes() async throws {
        let sink = RecordingSink()
        sink.block()
        let harness = try Self.harness(["recorder": sink], settings: ["recorder": SinkDeliverySettings(concurrency: 1)])
        _ = try await harness.queue(1, to: ["recorder"])
        let task = Task { await harness.dispatcher.run(shutdownGrace: .seconds(10)) }
        try await waitForAttempts(sink, 1)
        await harness.dispatcher.stop()
        _ = try await harness.queue(2, to: ["recorder"], startingAt: 100)
        sink.unblock()
        await task.value
        #expect(sink.attempts == 1, "the alerts queued after stop() stay for the next start")
        #expect(try await harness.statuses() == [.delivered, .pending, .pending])
    }

    func waitForAttempts(_ sink: RecordingSink, _ count: Int) async throws {
        try await waitUntil("\(count) delivery attempt(s) on \(sink.identity) (\(sink.attempts) so far)") { sink.attempts >= count }
    }
}
