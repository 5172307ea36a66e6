import Foundation
import PriceWatchCore
import PriceWatchCurl
import PriceWatchProviders
import PriceWatchServices
import PriceWatchSinks
import PriceWatchStore
import PriceWatchTestKit
import Synchronization
import Testing

/// One quote stream, many consumers: a consumer that exists only in this test receives every
/// poll beside the rule evaluator, end to end (a real provider over libcurl against a loopback
/// server, the evaluator, the outbox, the dispatcher, a webhook sink to a loopback receiver),
/// without any change to the poller.
@Suite struct QuoteStreamTests {
    typealias F = EngineFixtures

    /// A second consumer, say a price history: keeps every poll it is given.
    final class RecordingConsumer: QuoteConsumer {
        private let polls = Mutex<[PolledQuotes]>([])
        var received: [PolledQuotes] { polls.withLock { $0 } }

        func receive(_ poll: PolledQuotes) async -> QuoteReceipt {
            polls.withLock { $0.append(poll) }
            return .none
        }
    }

    @Test func aSecondConsumerReceivesEveryPollBesideTheEvaluatorWhoseAlertIsDelivered() async throws {
        let feed = try LoopbackHTTPServer()
        let receiver = try LoopbackHTTPServer()
        // Every wait below ends by the test kit's wait deadline at the latest (stopping a
        // server wakes its waiters).
        let deadline = expiringWait {
            feed.stop()
            receiver.stop()
        }
        defer {
            deadline.cancel()
            feed.stop()
            receiver.stop()
        }
        feed.route("GET", PolicyEndToEndTests.path, sequence: [PolicyEndToEndTests.ticker("99", minute: 0),
                                                               PolicyEndToEndTests.ticker("101", minute: 1)])
        receiver.route("POST", "/hook") { _ in .status(204) }

        let wallClock = ManualWallClock()
        let transport = CurlHTTPTransport()
        let binance = BinanceProvider(name: "binance", transport: transport, baseURL: feed.baseURL)
        let configuration = F.configuration(rules: [F.rule("btc-above-100", .above(F.decimal("100")), symbols: ["BTCUSDT"],
                                                           provider: "binance", notify: ["hook"])],
                                            providers: ["binance"], sinks: ["hook"])
        let store = try SQLiteAlertStore.inMemory()
        let doorbell = Doorbell()
        let evaluator = try await RuleEvaluator(configuration: configuration, store: store, doorbell: doorbell, logger: F.logger,
                                                now: wallClock.now)
        let hook = try WebhookSink(name: "hook", settings: .init(url: receiver.baseURL + "/hook"), transport: transport,
                                   wallClock: wallClock.function)
        let dispatcher = DeliveryDispatcher(store: store, sinks: SinkRegistry(["hook": hook]), doorbell: doorbell,
                                            clock: ContinuousClock(), wallClock: wallClock.function, logger: F.logger)
        let delivering = Task { await dispatcher.run() }
        defer { delivering.cancel() }

        let history = RecordingConsumer()
        let poller = ProviderPoller(provider: binance, symbols: ["BTCUSDT"], interval: .seconds(60), consumers: [evaluator, history],
                                    clock: ManualClock(), wallClock: wallClock.function, logger: F.logger)
        await poller.pollOnce()
        await poller.pollOnce()

        let polls = history.received
        try #require(polls.count == 2, "the second consumer gets every poll")
        #expect(polls.allSatisfy { $0.provider == "binance" && $0.failure == nil && $0.unserved.isEmpty })
        #expect(polls.map { $0.quotes.map(\.price) } == [[F.decimal("99")], [F.decimal("101")]])
        #expect(polls[1].quotes.first?.time == Timestamp(milliseconds: PolicyEndToEndTests.sessionStart + 60_000))

        let requests = try await receiver.waitForRequests(count: 1)
        let delivered = try #require(requests.first, "the evaluator's alert reaches the webhook receiver within the deadline")
        let body = String(decoding: delivered.body, as: UTF8.self)
        #expect(body.contains(#""rule":"btc-above-100""#), "the webhook carries the alert: \(body)")
        #expect(body.contains(#""symbol":"BTCUSDT""#))
        await dispatcher.stop()
        await delivering.value
    }
}
