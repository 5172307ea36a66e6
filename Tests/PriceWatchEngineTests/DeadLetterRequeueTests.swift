import PriceWatchCore
import PriceWatchApp
import PriceWatchServices
import PriceWatchStore
import PriceWatchTestKit
import Testing

/// A dead letter re-queued by another process (`pricewatch requeue`, which rings no doorbell of
/// the daemon) is sent by the idle dispatcher within ``DeliveryDispatcher/outboxRecheck``, with
/// its alert id.
@Suite struct DeadLetterRequeueTests {
    @Test func aRequeuedDeadLetterIsSentWithinTheOutboxRecheck() async throws {
        let sink = RecordingSink()
        sink.failNext([SinkError(retryable: false, "HTTP 404")])
        let harness = try DeliveryDispatcherTests.Harness(sinks: ["recorder": sink])
        let alerts = try await harness.queue(1, to: ["recorder"])
        let task = Task { await harness.dispatcher.run() }
        defer { task.cancel() }
        try await harness.waitUntilStatuses { $0 == [.dead] }
        // Idle: nothing pending, so the dispatcher waits, but with a deadline.
        // Idle, the dispatcher sleeps with a deadline of its own (it must wake to look at the outbox).
        try await harness.clock.waitForSleepers(1)
        let requeued = try await harness.store.requeueDeadLetters(DeadLetterSelection(), now: harness.wall.now)
        #expect(requeued.map(\.notification.id) == alerts.map(\.id))
        harness.clock.advance(by: DeliveryDispatcher<ManualClock>.outboxRecheck)
        // The re-queued delivery must be sent after one recheck period.
        try await harness.waitUntilStatuses { $0 == [.delivered] }
        #expect(sink.delivered.map(\.id) == alerts.map(\.id))
    }
}
