import Foundation
import PriceWatchCore
import PriceWatchApp
import PriceWatchCurl
import PriceWatchServices
import PriceWatchSinks
import PriceWatchStore
import PriceWatchTestKit
import Testing

/// A kind of notification that exists only in this test: no production file knows it.
struct PortfolioFill: NotificationContent {
    static let kind = NotificationKind("portfolio-fill")
    var symbol: String
    var quantity: Int

    func message() -> NotificationMessage {
        NotificationMessage(title: "Filled: \(quantity) \(symbol)", text: "Paper order filled: bought \(quantity) \(symbol)")
    }
}

/// A non-alert kind defined in test code goes through the durable outbox, the dispatcher and
/// the real webhook sink (libcurl) to a receiver on loopback, with the guarantees of alerts:
/// signed with its stable id, retried with the same id, never grouped.
@Suite struct NotificationKindOutboxTests {
    typealias F = EngineFixtures
    static let secret = "whsec_" + "c2VjcmV0LWtleS1mb3ItcHJpY2V3YXRjaC10ZXN0cw=="

    /// Waits for `count` requests, or gives up at the test kit's wait deadline (stopping the
    /// server ends the wait) and fails.
    static func requests(_ server: LoopbackHTTPServer, count: Int) async throws -> [RecordedRequest] {
        let watchdog = expiringWait { server.stop() }
        defer { watchdog.cancel() }
        let requests = try await server.waitForRequests(count: count)
        try #require(requests.count >= count, "timed out waiting for \(count) webhook requests")
        return requests
    }

    @Test func aKindFromTestCodeIsDeliveredFromTheOutboxSignedRetriedAndAlone() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/hook", sequence: [.status(503), .status(200)])
        let wall = ManualWallClock(AdapterFactory.systemWallClock())   // the verifier checks timestamps against now
        let clock = ManualClock()
        let store = try SQLiteAlertStore.inMemory()
        let doorbell = Doorbell()
        let webhook = try WebhookSink(name: "ops", settings: .init(url: server.baseURL + "/hook", secret: Self.secret),
                                      transport: CurlHTTPTransport(), wallClock: wall.function)
        // Alerts to this sink wait a minute to be grouped; other kinds never do.
        let sinks = SinkRegistry(["ops": webhook], settings: ["ops": SinkDeliverySettings(groupWait: 60_000)])
        let dispatcher = DeliveryDispatcher(store: store, sinks: sinks, doorbell: doorbell, clock: clock, wallClock: wall.function,
                                            schedule: RetrySchedule(initialDelay: 1_000, maximumDelay: 1_000, maximumAge: 3_600_000, jitter: 0),
                                            logger: F.logger)
        let running = Task { await dispatcher.run(shutdownGrace: .zero) }

        let alert = Alert(rule: F.rule("r", .above(F.decimal("1"))), quote: F.quote("AAPL", "2", at: wall.now.seconds),
                          provider: "feed", trigger: .init(price: F.decimal("2")))
        try await store.commit(StoreCommit(provider: "feed", alerts: [PendingAlert(alert: alert, sinks: ["ops"])], now: wall.now))
        let fill = OutgoingNotification(id: NotificationID.make(kind: PortfolioFill.kind, parts: ["order-1"]), time: wall.now,
                                        content: PortfolioFill(symbol: "AAPL", quantity: 10))
        try await store.enqueue(fill, sinks: ["ops"], now: wall.now)
        doorbell.ring()

        let first = try await Self.requests(server, count: 1)
        #expect(first[0].header("webhook-id") == fill.id, "the fill went alone while the alert's group is open")
        // The 503 is recorded as a retry due a second later; then time moves past it.
        try await waitUntil("the failed attempt to be recorded") {
            try await store.pendingDeliveries(dueBy: Timestamp(milliseconds: .max), limit: 10)
                .first(where: { $0.notification.id == fill.id })?.attempts == 1
        }
        wall.advance(seconds: 2)
        clock.advance(by: .seconds(2))
        doorbell.ring()
        let both = try await Self.requests(server, count: 2)
        try await waitUntil("the delivery to be recorded") {
            try await !store.pendingDeliveries(dueBy: Timestamp(milliseconds: .max), limit: 10)
                .contains(where: { $0.notification.id == fill.id })
        }
        running.cancel()
        await running.value

        #expect(both.map { $0.header("webhook-id") } == [fill.id, fill.id])
        #expect(both[0].bodyText == both[1].bodyText)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(both[1].body)) as? [String: Any])
        #expect(body["version"] as? Int == 1)
        #expect(body["type"] as? String == "notification")
        #expect(body["kind"] as? String == "portfolio-fill")
        #expect(body["title"] as? String == "Filled: 10 AAPL")
        #expect(try await StandardWebhooksVerifier.verify(both, secret: Self.secret, expectingSuccess: true).count == 2)
        let outbox = try await store.pendingDeliveries(dueBy: Timestamp(milliseconds: .max), limit: 10)
        #expect(outbox.map(\.notification.id) == [alert.id], "the fill is delivered; the alert still waits for its group")
    }
}
