import Foundation
import PriceWatchCore
import PriceWatchCurl
import PriceWatchServices
import PriceWatchSinks
import PriceWatchStore
import PriceWatchTestKit
import Testing

/// The dispatcher over a real SQLite outbox: delivery, retries with backoff, dead letters,
/// per-sink isolation and graceful shutdown. Time moves only when the test moves it.
@Suite struct DeliveryDispatcherTests {
    typealias F = EngineFixtures

    struct Harness {
        let store: SQLiteAlertStore
        let clock = ManualClock()
        let wall = ManualWallClock(Timestamp(seconds: 1_000))
        let doorbell = Doorbell()
        let sinks: SinkRegistry
        let dispatcher: DeliveryDispatcher<ManualClock>

        init(sinks: [String: any NotificationSink], settings: [String: SinkDeliverySettings] = [:],
             schedule: RetrySchedule = RetrySchedule(initialDelay: 1_000, maximumDelay: 60_000, maximumAge: 3_600_000, jitter: 0)) throws {
            store = try SQLiteAlertStore.inMemory()
            self.sinks = SinkRegistry(sinks, settings: settings)
            dispatcher = DeliveryDispatcher(store: store, sinks: self.sinks, doorbell: doorbell, clock: clock,
                                            wallClock: wall.function, schedule: schedule, logger: F.logger)
        }

        /// Queues `alertCount` alerts (quote times from `startingAt` seconds) at the wall clock's now.
        func queue(_ alertCount: Int, to sinkNames: [String], startingAt first: Int = 0) async throws -> [Alert] {
            var alerts: [Alert] = []
            for index in first..<(first + alertCount) {
                let rule = F.rule("r\(index)", .above(F.decimal("1")), notify: sinkNames)
                let quote = F.quote("AAPL", "2", at: Int64(index))
                alerts.append(Alert(rule: rule, quote: quote, provider: "feed", trigger: .init(price: quote.price)))
            }
            try await store.commit(StoreCommit(provider: "feed", alerts: alerts.map { PendingAlert(alert: $0, sinks: sinkNames) }, now: wall.now))
            doorbell.ring()
            return alerts
        }

        func statuses() async throws -> [Delivery.Status] {
            try await store.alerts(since: nil).flatMap(\.deliveries).map(\.status)
        }

        /// Waits until `condition` holds on the delivery rows.
        func waitUntilDeliveries(_ what: String, _ condition: @escaping ([Delivery]) -> Bool) async throws {
            try await PriceWatchTestKit.waitUntil("\(what) in the outbox") {
                condition(try await store.alerts(since: nil).flatMap(\.deliveries))
            }
        }

        /// Waits until `condition` holds on the outbox's statuses.
        func waitUntilStatuses(_ condition: @escaping ([Delivery.Status]) -> Bool) async throws {
            let now = { [store] in (try? await store.alerts(since: nil).flatMap(\.deliveries).map(\.status)) ?? [] }
            var last: [Delivery.Status] = []
            do {
                try await PriceWatchTestKit.waitUntil("the outbox statuses to match") {
                    last = await now()
                    return condition(last)
                }
            } catch let timeout as WaitTimedOut {
                throw WaitTimedOut(what: "\(timeout.what) (last seen: \(last))", timeout: timeout.timeout)
            }
        }
    }

    @Test func deliversEveryQueuedAlertOnceAndMarksIt() async throws {
        let sink = RecordingSink()
        let harness = try Harness(sinks: ["recorder": sink])
        let alerts = try await harness.queue(5, to: ["recorder"])
        let task = Task { await harness.dispatcher.run() }
        defer { task.cancel() }
        try await harness.waitUntilStatuses { $0 == Array(repeating: .delivered, count: 5) }
        #expect(Set(sink.delivered.map(\.id)) == Set(alerts.map(\.id)))
        #expect(sink.delivered.count == 5)
    }

    @Test func retryableFailuresBackOffThenSucceedWithTheSameID() async throws {
        let sink = RecordingSink()
        sink.failNext([SinkError(retryable: true, "HTTP 503"), SinkError(retryable: true, "HTTP 503")])
        let harness = try Harness(sinks: ["recorder": sink])
        let alerts = try await harness.queue(1, to: ["recorder"])
        let task = Task { await harness.dispatcher.run() }
        defer { task.cancel() }
        // The sink's attempt comes before the dispatcher stores its outcome: wait for the store.
        let pending = try await waitForFailedAttempts(harness, 1)
        #expect(pending.status == .pending)
        #expect(pending.nextAttemptAt == Timestamp(seconds: 1_001), "first retry after 1 s")
        #expect(pending.lastError == "HTTP 503")
        harness.wall.advance(seconds: 1)
        harness.doorbell.ring()
        let second = try await waitForFailedAttempts(harness, 2)
        #expect(second.nextAttemptAt == Timestamp(seconds: 1_003), "then after 2 s")
        harness.wall.advance(seconds: 2)
        harness.doorbell.ring()
        try await harness.waitUntilStatuses { $0 == [.delivered] }
        #expect(sink.delivered.map(\.id) == alerts.map(\.id))
    }

    @Test func permanentFailuresGoStraightToTheDeadLetters() async throws {
        let sink = RecordingSink()
        sink.failNext([SinkError(retryable: false, "HTTP 404")])
        let harness = try Harness(sinks: ["recorder": sink])
        _ = try await harness.queue(1, to: ["recorder"])
        let task = Task { await harness.dispatcher.run() }
        defer { task.cancel() }
        try await harness.waitUntilStatuses { $0 == [.dead] }
        #expect(try await harness.store.alerts(since: nil).first?.deliveries.first?.lastError == "HTTP 404")
        #expect(sink.attempts == 1)
    }

    @Test func retriesStopAtTheMaximumAge() {
        let schedule = RetrySchedule(initialDelay: 1_000, maximumDelay: 60_000, maximumAge: 10_000, jitter: 0)
        let error = SinkError(retryable: true, "timeout")
        let created = Timestamp(seconds: 0)
        #expect(schedule.afterFailure(error, attempt: 1, createdAt: created, now: Timestamp(seconds: 5), random: 0) == .retry(at: Timestamp(seconds: 6), error: "timeout"))
        guard case .dead = schedule.afterFailure(error, attempt: 5, createdAt: created, now: Timestamp(seconds: 9), random: 0) else {
            Issue.record("expected a dead letter past the maximum age")
            return
        }
        let limited = SinkError(retryable: true, "HTTP 429", retryAfterSeconds: 120)
        #expect(RetrySchedule().afterFailure(limited, attempt: 1, createdAt: created, now: created, random: 0) == .retry(at: Timestamp(seconds: 120), error: "HTTP 429"))
    }

    @Test func aBlockedSinkNeverDelaysAnother() async throws {
        let stuck = RecordingSink(name: "stuck")
        let healthy = RecordingSink(name: "healthy")
        stuck.block()
        let harness = try Harness(sinks: ["stuck": stuck, "healthy": healthy])
        _ = try await harness.queue(6, to: ["stuck", "healthy"])
        let task = Task { await harness.dispatcher.run() }
        defer {
            stuck.unblock()
            task.cancel()
        }
        try await waitUntil("6 deliveries on the healthy sink (\(healthy.delivered.count) so far)") { healthy.delivered.count >= 6 }
        #expect(healthy.delivered.count == 6)
        #expect(stuck.delivered.isEmpty)
        #expect(stuck.attempts == 4, "at most 4 in flight per sink")
    }

    @Test func shutdownFinishesDeliveriesInFlight() async throws {
        let sink = RecordingSink()
        sink.block()
        let harness = try Harness(sinks: ["recorder": sink])
        _ = try await harness.queue(1, to: ["recorder"])
        let task = Task { await harness.dispatcher.run(shutdownGrace: .seconds(10)) }
        try await waitForAttempts(sink, 1)
        await harness.dispatcher.stop()
        sink.unblock()
        await task.value
        #expect(try await harness.statuses() == [.delivered])
    }

    @Test func anAlertQueuedWhileTheReceiverIsDownIsDeliveredWithItsIDOnceItIsUp() async throws {
        let down = try LoopbackHTTPServer.onReusablePort()
        let port = down.port
        down.stop()
        let secret = "whsec_" + "c2VjcmV0LWtleS1mb3ItcHJpY2V3YXRjaC10ZXN0cw=="
        // The reference verifier refuses signatures more than 5 minutes off its own clock.
        let signingClock = ManualWallClock(Timestamp(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))))
        let webhook = try WebhookSink(name: "ops", settings: .init(url: down.baseURL + "/hook", secret: secret),
                                      transport: CurlHTTPTransport(), wallClock: signingClock.function)
        let harness = try Harness(sinks: ["ops": webhook])
        let alerts = try await harness.queue(1, to: ["ops"])
        let task = Task { await harness.dispatcher.run() }
        defer { task.cancel() }

        try await harness.waitUntilDeliveries("a failed first attempt") { $0.first?.lastError != nil }
        let refused = try await harness.store.alerts(since: nil).flatMap(\.deliveries)
        #expect(refused.map(\.status) == [.pending])
        #expect(refused.first?.nextAttemptAt == Timestamp(seconds: 1_001), "retried after 1 s")

        let server = try LoopbackHTTPServer(port: port)
        defer { server.stop() }
        server.route("POST", "/hook") { _ in .status(204) }
        harness.wall.advance(seconds: 1)
        harness.doorbell.ring()
        let requests = try await server.waitForRequests(count: 1)
        try await harness.waitUntilStatuses { $0 == [.delivered] }
        #expect(requests.map { $0.header("webhook-id") } == alerts.map(\.id))
        #expect(try await StandardWebhooksVerifier.verify(requests, secret: secret) == alerts.map { "ok \($0.id)" })
    }

    /// The one delivery once the store holds the outcome of its `count`th failed attempt.
    func waitForFailedAttempts(_ harness: Harness, _ count: Int) async throws -> Delivery {
        try await waitFor("the store to hold \(count) failed attempt(s)") { () async throws -> Delivery? in
            let delivery = try await harness.store.alerts(since: nil).flatMap(\.deliveries).first
            return delivery.flatMap { $0.attempts >= count && $0.lastError != nil ? $0 : nil }
        }
    }

    func waitForAttempts(_ sink: RecordingSink, _ count: Int) async throws {
        try await waitUntil("\(count) delivery attempt(s) on \(sink.identity) (\(sink.attempts) so far)") { sink.attempts >= count }
    }
}
