import Foundation
import PriceWatchApp
import PriceWatchCore
import PriceWatchCurl
import PriceWatchServices
import PriceWatchSinks
import PriceWatchStore
import PriceWatchTestKit
import Testing

/// A relayed message (kind `external`, as `POST /api/ingest/tradingview` stores it) through the
/// real outbox, dispatcher and webhook sink: held by the sink's quiet hours and released at
/// their end, retried on a transient answer, dead-lettered on a permanent one.
@Suite struct ExternalMessageDeliveryTests {
    typealias F = EngineFixtures
    /// 00:00 to 07:00 UTC; the clocks start at 00:16:40 UTC (1,000 s), inside it.
    static let quiet: QuietHours = {
        guard let quiet = try? QuietHours(parsing: "00:00-07:00", timeZone: CalendarSchedule.utc) else { preconditionFailure("bad test window") }
        return quiet
    }()
    static let release = Timestamp(seconds: 7 * 3600)

    struct Harness {
        let store: SQLiteAlertStore
        let clock = ManualClock()
        let wall = ManualWallClock(Timestamp(seconds: 1_000))
        let doorbell = Doorbell()
        let dispatcher: DeliveryDispatcher<ManualClock>

        init(url: String, quiet: QuietHours?) throws {
            store = try SQLiteAlertStore.inMemory()
            let webhook = try WebhookSink(name: "hook", settings: .init(url: url), transport: CurlHTTPTransport(), wallClock: wall.function)
            let sinks = SinkRegistry(["hook": webhook], settings: ["hook": SinkDeliverySettings(quietHours: quiet)])
            dispatcher = DeliveryDispatcher(store: store, sinks: sinks, doorbell: doorbell, clock: clock, wallClock: wall.function,
                                            schedule: RetrySchedule(initialDelay: 1_000, maximumDelay: 1_000, maximumAge: 3_600_000, jitter: 0),
                                            logger: F.logger)
        }

        /// Queues a relayed text message as the route does; returns its id.
        func relay(_ body: String) async throws -> String {
            let id = ExternalMessage.notificationID(route: "tradingview", body: body, receivedAt: wall.now, idempotencyKey: nil)
            let message = ExternalMessage(route: "tradingview", title: "TradingView alert", body: body, isJSON: false)
            let added = try await store.enqueue(OutgoingNotification(id: id, time: wall.now, content: message), sinks: ["hook"], now: wall.now)
            #expect(added)
            doorbell.ring()
            return id
        }

        func advance(to target: Timestamp) {
            let step = target.milliseconds - wall.now.milliseconds
            wall.advance(milliseconds: step)
            clock.advance(by: .milliseconds(step))
            doorbell.ring()
        }
    }

    @Test func heldDuringQuietHoursThenRetriedAndDeliveredOnce() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/hook", sequence: [.status(503), .status(200)])
        let harness = try Harness(url: server.baseURL + "/hook", quiet: Self.quiet)
        let running = Task { await harness.dispatcher.run(shutdownGrace: .zero) }
        defer { running.cancel() }
        let id = try await harness.relay("BTCUSD crossed 100000")
        try await waitUntil("the message held until 07:00") {
            let pending = try await harness.store.pendingDeliveries(dueBy: Timestamp(seconds: 8 * 3600), limit: 10)
            return pending.count == 1 && pending[0].nextAttemptAt == Self.release && pending[0].attempts == 0
        }
        #expect(server.requests.isEmpty, "nothing sent during quiet hours")
        harness.advance(to: Self.release)
        _ = try await server.waitForRequests(count: 1)
        // The 503 is retried a second later.
        try await waitUntil("the retry due") {
            (try await harness.store.pendingDeliveries(dueBy: Timestamp(seconds: 8 * 3600), limit: 10).first?.attempts ?? 0) == 1
        }
        harness.advance(to: Timestamp(milliseconds: Self.release.milliseconds + 1_000))
        let requests = try await server.waitForRequests(count: 2)
        try await waitUntil("the outbox empty") { try await harness.store.pendingDeliveryCount() == 0 }
        for request in requests {
            let body = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
            #expect(body["id"] as? String == id && body["kind"] as? String == "external")
            #expect(body["title"] as? String == "TradingView alert" && body["text"] as? String == "BTCUSD crossed 100000")
        }
        #expect(server.requests.count == 2)
    }

    @Test func aPermanentRefusalIsADeadLetter() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/hook", sequence: [.status(400)])
        let harness = try Harness(url: server.baseURL + "/hook", quiet: nil)
        let running = Task { await harness.dispatcher.run(shutdownGrace: .zero) }
        defer { running.cancel() }
        let id = try await harness.relay("ETHUSD below 2000")
        try await waitUntil("the message dead-lettered") {
            try await harness.store.deadLetters(DeadLetterSelection(sink: "hook")).map(\.notification.id) == [id]
        }
        #expect(server.requests.count == 1)
        #expect(try await harness.store.pendingDeliveryCount() == 0)
    }
}
