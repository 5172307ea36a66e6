import PriceWatchCore
import PriceWatchCurl
import PriceWatchServices
import PriceWatchProviders
import PriceWatchStore
import PriceWatchTestKit
import Testing

/// The polling policy end to end: the real libcurl transport, the real Binance provider, the
/// poller and the engine, against loopback servers that misbehave the way services do (429
/// with Retry-After, 500, HTML where JSON was expected, a truncated body, a slow answer,
/// connection refused). Backoff waits run on a manual clock; only HTTP runs in real time.
@Suite struct PolicyEndToEndTests {
    typealias F = EngineFixtures
    static let path = "/api/v3/ticker/24hr"
    /// Quote times: minute `m` of a session half an hour before the manual wall clock's now.
    static let sessionStart: Int64 = 1_727_875_800_000 - 30 * 60_000

    static func ticker(_ price: String, minute: Int64) -> LoopbackResponse {
        .json(#"{"symbol":"BTCUSDT","lastPrice":"\#(price)","prevClosePrice":"100.00","closeTime":\#(sessionStart + minute * 60_000)}"#)
    }

    static func evaluator(_ rule: Rule) async throws -> (RuleEvaluator, SQLiteAlertStore) {
        let store = try SQLiteAlertStore.inMemory()
        let evaluator = try await RuleEvaluator(configuration: F.configuration(rules: [rule], providers: ["binance", "mirror"]),
                                                store: store, doorbell: Doorbell(), logger: F.logger, now: Timestamp(seconds: 0))
        return (evaluator, store)
    }

    static func settings() -> PollingSettings {
        var settings = PollingSettings()
        settings.backoff = PollBackoff(initialDelay: .seconds(1), maximumDelay: .seconds(30), jitter: 0.2, maximumAttempts: 3)
        return settings
    }

    /// Moves the manual clock to `seconds` after its start.
    static func move(_ clock: ManualClock, to seconds: Duration) {
        clock.advance(by: seconds - clock.now.offset)
    }


    /// Waits until the poll sleeps on the clock, checks nothing is sent 1 ms before `delay`,
    /// then lets the delay pass and waits for the next request.
    static func expectWait(_ delay: Duration, clock: ManualClock, server: LoopbackHTTPServer) async throws {
        try await clock.waitForSleepers(1)
        let before = server.requests.count
        clock.advance(by: delay - .milliseconds(1))
        #expect(server.requests.count == before, "nothing is sent before \(delay)")
        clock.advance(by: .milliseconds(1))
        try await server.waitForRequests(count: before + 1)
    }

    @Test func faultsNeverBecomeAlertsAndFailoverAndRecoveryFireEachCrossingOnce() async throws {
        let clock = ManualClock()
        let primaryServer = try LoopbackHTTPServer()
        let mirrorServer = try LoopbackHTTPServer()
        defer {
            primaryServer.stop()
            mirrorServer.stop()
        }
        primaryServer.route("GET", Self.path, sequence: [
            Self.ticker("99", minute: 0),                                               // poll 1: side down
            .status(429, headers: [HTTPHeader("Retry-After", "5")], body: "Too Many Requests"), // poll 2
            .status(500, body: "internal error"),
            .html("<!doctype html><html><body>Checking your browser</body></html>"),
            .truncated(#"{"symbol":"BTCUSDT","lastPrice":"1.00","closeTime":1}"#, afterBytes: 12), // poll 3
            .hang,                                                                      // poll 4: too slow
            Self.ticker("100.5", minute: 1),                                            // poll 5: back, 14 min behind
            Self.ticker("99", minute: 20),                                              // poll 6: crossing down
        ])
        mirrorServer.route("GET", Self.path, sequence: [Self.ticker("101", minute: 15)])
        let transport = CurlHTTPTransport()
        let primary = BinanceProvider(name: "binance", transport: transport, baseURL: primaryServer.baseURL, timeout: .milliseconds(500))
        let mirror = BinanceProvider(name: "mirror", transport: transport, baseURL: mirrorServer.baseURL, timeout: .seconds(5))
        let (evaluator, store) = try await Self.evaluator(F.rule("cross-100", .crosses(F.decimal("100")), symbols: ["BTCUSDT"], provider: "binance"))
        let log = CapturingLogHandler()
        let poller = ProviderPoller(provider: primary, symbols: ["BTCUSDT"], interval: .seconds(60), consumers: [evaluator],
                                    clock: clock, wallClock: ManualWallClock().function, logger: log.logger,
                                    fallbacks: [.init(provider: mirror)], settings: Self.settings(), random: { 0.5 })

        await poller.pollOnce()                                 // poll 1 at 0 s
        #expect(try await store.alerts(since: nil).isEmpty, "the first quote only records the side")

        Self.move(clock, to: .seconds(60))                      // poll 2: 429, then 500, then HTML
        let poll2 = Task { await poller.pollOnce() }
        try await Self.expectWait(.seconds(5), clock: clock, server: primaryServer)          // Retry-After: 5
        try await Self.expectWait(.milliseconds(1_800), clock: clock, server: primaryServer) // 2 s less 20 % x 0.5
        await poll2.value
        #expect(mirrorServer.requests.count == 1, "after three failed attempts the mirror serves")

        Self.move(clock, to: .seconds(120))                     // poll 3: truncated body; probe only
        await poller.pollOnce()
        Self.move(clock, to: .seconds(180))                     // poll 4: no answer within 0.5 s
        await poller.pollOnce()
        #expect(clock.sleeperCount == 0, "a probe of a failing provider is not retried")
        Self.move(clock, to: .seconds(240))                     // poll 5: recovered but behind
        await poller.pollOnce()
        Self.move(clock, to: .seconds(300))                     // poll 6
        await poller.pollOnce()

        #expect(primaryServer.requests(path: Self.path).count == 8)
        #expect(mirrorServer.requests(path: Self.path).count == 3, "the mirror only while the primary failed")
        let alerts = try await store.alerts(since: nil).map(\.alert)
        #expect(alerts.map { "\($0.price) \($0.provider ?? "-")" } == ["101 mirror", "99 binance"],
                "one alert per real crossing: none from a fault, none twice after failing over and back")
        let warnings = log.lines(atLeast: .warning).map(\.message)
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("provider has failed 3 polls in a row: binance 24hr ticker") == true, "\(warnings)")
        #expect(log.lines.contains { $0.level == .info && $0.message == "provider recovered after 3 failed poll(s)" })
    }

    @Test func connectionRefusedIsRetriedWithExactBackoffThenFailsOver() async throws {
        let clock = ManualClock()
        let gone = try RefusingPort() // refuses connections, and no other server can take its port
        defer { withExtendedLifetime(gone) {} } // the port stays taken until the test ends
        let mirrorServer = try LoopbackHTTPServer()
        defer { mirrorServer.stop() }
        mirrorServer.route("GET", Self.path, sequence: [Self.ticker("101", minute: 15)])
        let transport = CurlHTTPTransport()
        let primary = BinanceProvider(name: "binance", transport: transport, baseURL: gone.baseURL, timeout: .seconds(5))
        let mirror = BinanceProvider(name: "mirror", transport: transport, baseURL: mirrorServer.baseURL, timeout: .seconds(5))
        let (evaluator, store) = try await Self.evaluator(F.rule("above-100", .above(F.decimal("100")), symbols: ["BTCUSDT"], provider: "binance"))
        let poller = ProviderPoller(provider: primary, symbols: ["BTCUSDT"], interval: .seconds(60), consumers: [evaluator],
                                    clock: clock, wallClock: ManualWallClock().function, logger: F.logger,
                                    fallbacks: [.init(provider: mirror)], settings: Self.settings(), random: { 0 })
        let poll = Task { await poller.pollOnce() }
        try await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(999))
        #expect(clock.sleeperCount == 1, "the first retry waits the full second")
        clock.advance(by: .milliseconds(1))
        try await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(1_999))
        #expect(clock.sleeperCount == 1, "the second retry waits 2 s")
        clock.advance(by: .milliseconds(1))
        await poll.value
        #expect(clock.now.offset == .seconds(3))
        #expect(mirrorServer.requests.count == 1)
        let alerts = try await store.alerts(since: nil).map(\.alert)
        #expect(alerts.map { "\($0.price) \($0.provider ?? "-")" } == ["101 mirror"])
    }
}
