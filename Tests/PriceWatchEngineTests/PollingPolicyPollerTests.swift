import PriceWatchCore
import PriceWatchServices
import PriceWatchStore
import PriceWatchTestKit
import Testing

/// The polling policy inside the real poller and evaluator, on a manual clock: exact backoff
/// delays, Retry-After, rate-limit spacing, retries that never run into the next poll,
/// failover and recovery, unknown-symbol parking, and data-health log lines. No sleeps.
@Suite struct PollingPolicyPollerTests {
    typealias F = EngineFixtures
    static let serverError = ProviderError(.transient, "HTTP 500 from 127.0.0.1")

    static func evaluator(rules: [Rule], providers: [String] = ["feed", "backup"]) async throws -> (RuleEvaluator, SQLiteAlertStore) {
        let store = try SQLiteAlertStore.inMemory()
        let evaluator = try await RuleEvaluator(configuration: F.configuration(rules: rules, providers: providers), store: store,
                                                doorbell: Doorbell(), logger: F.logger, now: Timestamp(seconds: 0))
        return (evaluator, store)
    }

    static func settings(attempts: Int = 3, initial: Duration = .seconds(1), jitter: Double = 0.2,
                         staleAfter: Duration = .seconds(900), failureWarningAfter: Int = 3) -> PollingSettings {
        var settings = PollingSettings()
        settings.backoff = PollBackoff(initialDelay: initial, maximumDelay: .seconds(30), jitter: jitter, maximumAttempts: attempts)
        settings.staleAfter = staleAfter
        settings.failureWarningAfter = failureWarningAfter
        return settings
    }

    /// Waits until `provider` has been called `count` times.
    static func waitForCalls(_ provider: FaultyProvider, _ count: Int) async throws {
        try await waitUntil("\(count) call(s) of the provider (\(provider.calls.count) so far)") { provider.calls.count >= count }
    }

    static func alerts(_ store: SQLiteAlertStore) async throws -> [Alert] {
        try await store.alerts(since: nil).map(\.alert)
    }

    // MARK: Retries

    @Test func aFailedBatchIsRetriedAfterExactJitteredBackoffDelays() async throws {
        let clock = ManualClock()
        let provider = FaultyProvider(name: "feed", clock: clock, script: [.fail(Self.serverError), .fail(Self.serverError)],
                                      otherwise: .quoteAll(price: "150", time: 1_000))
        let (evaluator, store) = try await Self.evaluator(rules: [F.rule("r", .above(F.decimal("100")))])
        let poller = ProviderPoller(provider: provider, symbols: ["AAPL"], interval: .seconds(60), consumers: [evaluator], clock: clock,
                                    wallClock: ManualWallClock().function, logger: F.logger, settings: Self.settings(), random: { 0.5 })
        let poll = Task { await poller.pollOnce() }
        try await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(899))
        #expect(provider.calls.count == 1, "1 s less 20 % jitter x 0.5 = 900 ms, not earlier")
        clock.advance(by: .milliseconds(1))
        try await Self.waitForCalls(provider, 2)
        try await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(1_799))
        #expect(provider.calls.count == 2)
        clock.advance(by: .milliseconds(1))
        await poll.value
        #expect(provider.callTimes == [.zero, .milliseconds(900), .milliseconds(2_700)])
        #expect(try await Self.alerts(store).map(\.price) == [F.decimal("150")], "the retried answer is evaluated")
    }

    @Test func retryAfterIsHonouredExactly() async throws {
        let clock = ManualClock()
        let limited = ProviderError(.rateLimited, "HTTP 429", retryAfterSeconds: 7)
        let provider = FaultyProvider(name: "feed", clock: clock, script: [.fail(limited)])
        let (evaluator, _) = try await Self.evaluator(rules: [F.rule("r", .above(F.decimal("1")))])
        let poller = ProviderPoller(provider: provider, symbols: ["AAPL"], interval: .seconds(60), consumers: [evaluator], clock: clock,
                                    wallClock: ManualWallClock().function, logger: F.logger, settings: Self.settings(), random: { 0.9 })
        let poll = Task { await poller.pollOnce() }
        try await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(6_999))
        #expect(provider.calls.count == 1)
        clock.advance(by: .milliseconds(1))
        await poll.value
        #expect(provider.callTimes == [.zero, .seconds(7)])
    }

    @Test func aRetryAfterLongerThanTheIntervalSkipsTheProviderUntilItHasPassed() async throws {
        let clock = ManualClock()
        let limited = ProviderError(.rateLimited, "HTTP 429", retryAfterSeconds: 150)
        let provider = FaultyProvider(name: "feed", clock: clock, script: [.fail(limited)])
        let (evaluator, _) = try await Self.evaluator(rules: [F.rule("r", .above(F.decimal("1")))])
        let poller = ProviderPoller(provider: provider, symbols: ["AAPL"], interval: .seconds(60), consumers: [evaluator], clock: clock,
                                    wallClock: ManualWallClock().function, logger: F.logger, settings: Self.settings())
        let task = Task { await poller.run() }
        defer { task.cancel() }
        for _ in 1...3 {
            try await clock.waitForSleepers(1)
            clock.advance(by: .seconds(60))
        }
        try await Self.waitForCalls(provider, 2)
        #expect(provider.callTimes == [.zero, .seconds(180)], "no request at 60 s or 120 s, within Retry-After; none retried")
    }

    @Test func retriesNeverRunIntoTheNextPoll() async throws {
        let clock = ManualClock()
        let provider = FaultyProvider(name: "feed", clock: clock, script: [.fail(Self.serverError), .fail(Self.serverError)])
        let (evaluator, _) = try await Self.evaluator(rules: [F.rule("r", .above(F.decimal("1")))])
        let poller = ProviderPoller(provider: provider, symbols: ["AAPL"], interval: .seconds(10), consumers: [evaluator], clock: clock,
                                    wallClock: ManualWallClock().function, logger: F.logger,
                                    settings: Self.settings(attempts: 5, initial: .seconds(6), jitter: 0))
        let task = Task { await poller.run() }
        defer { task.cancel() }
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(6)) // the retry at 6 s fails; 6 + 12 s is past the next poll at 10 s: dropped
        try await Self.waitForCalls(provider, 2)
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(4))
        try await Self.waitForCalls(provider, 3)
        #expect(provider.callTimes == [.zero, .seconds(6), .seconds(10)])
    }

    @Test func permanentErrorsAreNotRetried() async throws {
        let clock = ManualClock()
        let provider = FaultyProvider(name: "feed", clock: clock, script: [.fail(ProviderError(.permanent, "HTTP 401: invalid API key"))])
        let (evaluator, _) = try await Self.evaluator(rules: [F.rule("r", .above(F.decimal("1")))])
        let poller = ProviderPoller(provider: provider, symbols: ["AAPL"], interval: .seconds(60), consumers: [evaluator], clock: clock,
                                    wallClock: ManualWallClock().function, logger: F.logger, settings: Self.settings())
        await poller.pollOnce()
        #expect(provider.calls.count == 1)
        #expect(clock.sleeperCount == 0)
    }

    // MARK: Rate limit

    @Test func requestsAreSpacedByTheRateLimit() async throws {
        let clock = ManualClock()
        let provider = FaultyProvider(name: "feed", batchSize: 2, clock: clock)
        let (evaluator, _) = try await Self.evaluator(rules: [F.rule("r", .above(F.decimal("1")), symbols: ["A", "B", "C", "D", "E", "F"])])
        let limiter = RateLimiter(requestsPerMinute: 30, clock: clock) // one request every 2 s
        let poller = ProviderPoller(provider: provider, symbols: ["A", "B", "C", "D", "E", "F"], interval: .seconds(60),
                                    consumers: [evaluator], clock: clock, wallClock: ManualWallClock().function, logger: F.logger,
                                    limiter: limiter)
        let poll = Task { await poller.pollOnce() }
        try await Self.waitForCalls(provider, 1)
        try await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(1_999))
        #expect(provider.calls.count == 1)
        clock.advance(by: .milliseconds(1))
        try await Self.waitForCalls(provider, 2)
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        await poll.value
        #expect(provider.calls.map(\.symbols) == [["A", "B"], ["C", "D"], ["E", "F"]], "batches as large as the provider takes")
        #expect(provider.callTimes == [.zero, .seconds(2), .seconds(4)])
    }

    // MARK: Failover

    @Test func aFailingProviderFailsOverAndComesBackWhenItRecovers() async throws {
        let clock = ManualClock()
        let symbols = ["A", "B", "C", "D"]
        let down = ProviderError(.permanent, "HTTP 403 from 127.0.0.1")
        let primary = FaultyProvider(name: "feed", batchSize: 2, clock: clock, script: [.fail(down), .fail(down)],
                                     otherwise: .quoteAll(price: "99", time: 3_000))
        let backup = FaultyProvider(name: "backup", batchSize: 3, clock: clock, otherwise: .quoteAll(price: "101", time: 2_000))
        let (evaluator, store) = try await Self.evaluator(rules: [F.rule("r", .above(F.decimal("100")), symbols: symbols)])
        let poller = ProviderPoller(provider: primary, symbols: symbols, interval: .seconds(60), consumers: [evaluator], clock: clock,
                                    wallClock: ManualWallClock().function, logger: F.logger,
                                    fallbacks: [.init(provider: backup)], settings: Self.settings())
        await poller.pollOnce()
        #expect(primary.calls.map(\.symbols) == [["A", "B"]], "after the first batch fails, the rest go to the fallback")
        #expect(backup.calls.map(\.symbols) == [["A", "B", "C"], ["D"]], "in the fallback's own batch size")
        let alerts = try await Self.alerts(store)
        #expect(alerts.map(\.symbol).sorted() == symbols)
        #expect(alerts.allSatisfy { $0.provider == "backup" }, "alerts name the provider that served the quote")

        await poller.pollOnce() // still failing: one probe batch, no retry
        #expect(primary.calls.map(\.symbols) == [["A", "B"], ["A", "B"]])
        #expect(backup.calls.count == 4)

        await poller.pollOnce() // recovered
        #expect(primary.calls.map(\.symbols) == [["A", "B"], ["A", "B"], ["A", "B"], ["C", "D"]])
        #expect(backup.calls.count == 4, "back on the primary: the fallback is not asked")
        #expect(clock.sleeperCount == 0, "no retries of a permanent error")
    }

    @Test func fallbacksAreTriedInOrderForWhatTheEarlierOnesCouldNotQuote() async throws {
        let clock = ManualClock()
        let primary = FaultyProvider(name: "feed", clock: clock, script: [.fail(ProviderError(.permanent, "HTTP 403"))])
        let first = FaultyProvider(name: "first", clock: clock, script: [.answer(["A": .success(F.quote("A", "5", at: 1_000))])])
        let second = FaultyProvider(name: "second", clock: clock, otherwise: .quoteAll(price: "6", time: 1_000))
        let (evaluator, store) = try await Self.evaluator(rules: [F.rule("r", .above(F.decimal("1")), symbols: ["A", "B"])],
                                                          providers: ["feed", "first", "second"])
        let poller = ProviderPoller(provider: primary, symbols: ["A", "B"], interval: .seconds(60), consumers: [evaluator], clock: clock,
                                    wallClock: ManualWallClock().function, logger: F.logger,
                                    fallbacks: [.init(provider: first), .init(provider: second)], settings: Self.settings())
        await poller.pollOnce()
        #expect(first.calls.map(\.symbols) == [["A", "B"]])
        #expect(second.calls.map(\.symbols) == [["B"]])
        let alerts = try await Self.alerts(store).sorted { $0.symbol < $1.symbol }
        #expect(alerts.map { "\($0.symbol) \($0.provider ?? "-") \($0.price)" } == ["A first 5", "B second 6"])
    }

    /// The primary is 15 minutes behind the fallback (delayed data). A crossing seen through the
    /// fallback must not fire again when the primary's older quotes arrive after recovery, and
    /// an older quote on the other side must not fire a crossing backwards in time.
    @Test func failoverNeverFiresTheSameCrossingTwiceNorAFalseOne() async throws {
        let clock = ManualClock()
        let primary = FaultyProvider(name: "feed", clock: clock)
        let backup = FaultyProvider(name: "backup", clock: clock)
        let (evaluator, store) = try await Self.evaluator(rules: [F.rule("x", .crosses(F.decimal("100")))])
        let poller = ProviderPoller(provider: primary, symbols: ["AAPL"], interval: .seconds(60), consumers: [evaluator], clock: clock,
                                    wallClock: ManualWallClock().function, logger: F.logger,
                                    fallbacks: [.init(provider: backup)], settings: Self.settings(attempts: 1))
        let down = ProviderError(.transient, "HTTP 503")
        func quote(_ price: String, _ minute: Int64) -> FaultyProvider.Outcome { .answer(F.ok(F.quote("AAPL", price, at: minute * 60))) }

        primary.then(quote("99", 600))                       // 10:00 down: records the side
        await poller.pollOnce()
        primary.then(.fail(down)); backup.then(quote("101", 614)) // fallback 10:14 up: a real crossing
        await poller.pollOnce()
        primary.then(.fail(down)); backup.then(quote("99.5", 613)) // an older fallback quote: a repeat
        await poller.pollOnce()
        primary.then(quote("99.8", 601))                     // recovered, but 15 min behind: repeat, no crossing down
        await poller.pollOnce()
        primary.then(quote("100.5", 615))                    // caught up, still up: no second alert
        await poller.pollOnce()
        primary.then(quote("99", 616))                       // a real crossing down
        await poller.pollOnce()

        let alerts = try await Self.alerts(store)
        #expect(alerts.map { "\($0.price) \($0.provider ?? "-")" } == ["101 backup", "99 feed"])
        let history = try await store.quotes(provider: "feed", symbol: "AAPL").map(\.time.seconds)
        #expect(history == [36_000, 36_840, 36_900, 36_960], "one time line: the fallback's quote is in the primary's history")
    }

    // MARK: Unknown symbols

    @Test func anUnknownSymbolNeitherFailsTheBatchNorIsAskedForeverAndIsLoggedOnce() async throws {
        let clock = ManualClock()
        let unknown = ProviderError(.unknownSymbol, "NOPE: not found")
        let answer = FaultyProvider.Outcome.answer(["AAPL": .success(F.quote("AAPL", "5", at: 1_000)), "NOPE": .failure(unknown)])
        let provider = FaultyProvider(name: "feed", clock: clock, script: [answer, answer, answer, answer])
        let log = CapturingLogHandler()
        let (evaluator, store) = try await Self.evaluator(rules: [F.rule("r", .above(F.decimal("1")), symbols: ["AAPL", "NOPE"])])
        let backup = FaultyProvider(name: "backup", clock: clock)
        var settings = Self.settings()
        settings.unknownSymbolRecheck = .seconds(3_600)
        let poller = ProviderPoller(provider: provider, symbols: ["AAPL", "NOPE"], interval: .seconds(60), consumers: [evaluator],
                                    clock: clock, wallClock: ManualWallClock().function, logger: log.logger,
                                    fallbacks: [.init(provider: backup)], settings: settings)
        for _ in 1...3 {
            await poller.pollOnce()
            clock.advance(by: .seconds(60))
        }
        await poller.pollOnce()
        #expect(provider.calls.map(\.symbols) == Array(repeating: ["AAPL", "NOPE"], count: 3) + [["AAPL"]])
        #expect(backup.calls.isEmpty, "an unknown symbol is not a provider failure")
        #expect(try await Self.alerts(store).map(\.symbol) == ["AAPL"])
        let parked = log.lines(atLeast: .warning).filter { $0.symbol == "NOPE" }
        #expect(parked.map(\.message) == ["unknown symbol NOPE (NOPE: not found); answered unknown 3 times in a row, now asked only every 1h"])
        #expect(parked.first?.provider == "feed")
        // An hour after parking it is asked again.
        clock.advance(by: .seconds(3_600 - 60))
        await poller.pollOnce()
        #expect(provider.calls.last?.symbols == ["AAPL", "NOPE"])
    }

    @Test func aRequestRejectedAsAWholeForAnUnknownSymbolIsNotAFailure() async throws {
        let clock = ManualClock()
        let provider = FaultyProvider(name: "feed", batchSize: 1, clock: clock,
                                      script: [.fail(ProviderError(.unknownSymbol, "HTTP 404: no data found, symbol may be delisted"))])
        let backup = FaultyProvider(name: "backup", clock: clock)
        let (evaluator, _) = try await Self.evaluator(rules: [F.rule("r", .above(F.decimal("1")), symbols: ["NOPE", "AAPL"])])
        let poller = ProviderPoller(provider: provider, symbols: ["NOPE", "AAPL"], interval: .seconds(60), consumers: [evaluator],
                                    clock: clock, wallClock: ManualWallClock().function, logger: F.logger,
                                    fallbacks: [.init(provider: backup)], settings: Self.settings())
        await poller.pollOnce()
        #expect(provider.calls.map(\.symbols) == [["NOPE"], ["AAPL"]])
        #expect(backup.calls.isEmpty)
    }

    // MARK: Data health

    @Test func aFailingProviderWarnsOncePerEpisodeAndLogsItsRecovery() async throws {
        let clock = ManualClock()
        let down = ProviderError(.permanent, "HTTP 403 from 127.0.0.1")
        let provider = FaultyProvider(name: "feed", clock: clock, script: Array(repeating: .fail(down), count: 5))
        let log = CapturingLogHandler()
        let (evaluator, _) = try await Self.evaluator(rules: [F.rule("r", .above(F.decimal("1")))])
        let wall = ManualWallClock()
        let poller = ProviderPoller(provider: provider, symbols: ["AAPL"], interval: .seconds(60), consumers: [evaluator], clock: clock,
                                    wallClock: wall.function, logger: log.logger, settings: Self.settings(staleAfter: .seconds(900)))
        for _ in 0..<6 {
            await poller.pollOnce()
            clock.advance(by: .seconds(60))
        }
        let warnings = log.lines(atLeast: .warning).map(\.message)
        #expect(warnings == ["provider has failed 3 polls in a row: HTTP 403 from 127.0.0.1"])
        #expect(log.lines(atLeast: .warning).map(\.event) == ["provider-failing"], "the journal's MESSAGE_ID for it")
        let info = log.lines.filter { $0.level == .info }.map(\.message)
        #expect(info == ["fetch failed after 1 attempt(s): HTTP 403 from 127.0.0.1; 1 symbol(s) wait for the next poll",
                         "provider answers again", "provider recovered after 5 failed poll(s)"])
        #expect(log.lines(atLeast: .info).allSatisfy { $0.provider == "feed" })
    }

    @Test func aSymbolWithoutFreshQuotesWarnsOnceWithTheReasonAndRecovers() async throws {
        let clock = ManualClock()
        // The provider keeps answering the same quote (a repeat) for 20 minutes, then a new one.
        let provider = FaultyProvider(name: "feed", clock: clock, otherwise: .quoteAll(price: "5", time: 1_000))
        let log = CapturingLogHandler()
        let (evaluator, _) = try await Self.evaluator(rules: [F.rule("r", .above(F.decimal("1")))])
        let poller = ProviderPoller(provider: provider, symbols: ["AAPL"], interval: .seconds(60), consumers: [evaluator], clock: clock,
                                    wallClock: ManualWallClock().function, logger: log.logger, settings: Self.settings(staleAfter: .seconds(900)))
        for _ in 0...20 {
            await poller.pollOnce()
            clock.advance(by: .seconds(60))
        }
        provider.otherwise(.quoteAll(price: "6", time: 2_000))
        await poller.pollOnce()
        let lines = log.lines(atLeast: .info).filter { $0.symbol == "AAPL" }
        #expect(lines.map(\.message) == [
            "AAPL has had no fresh quote for 15m: the latest quote, from 1970-01-01T00:16:40Z, was already seen",
            "AAPL has fresh quotes again after 21m",
        ])
        #expect(lines.map(\.level) == [.warning, .info])
        #expect(lines.allSatisfy { $0.provider == "feed" })
    }

    @Test func noStaleWarningWhileTheMarketIsClosed() async throws {
        let clock = ManualClock()
        let closed = Quote(symbol: "AAPL", price: F.decimal("5"), time: Timestamp(seconds: 1_000), marketState: "CLOSED")
        let provider = FaultyProvider(name: "feed", clock: clock, otherwise: .answer(["AAPL": .success(closed)]))
        let log = CapturingLogHandler()
        let (evaluator, _) = try await Self.evaluator(rules: [F.rule("r", .above(F.decimal("1")))])
        let poller = ProviderPoller(provider: provider, symbols: ["AAPL"], interval: .seconds(60), consumers: [evaluator], clock: clock,
                                    wallClock: ManualWallClock().function, logger: log.logger, settings: Self.settings(staleAfter: .seconds(900)))
        for _ in 0...60 {
            await poller.pollOnce()
            clock.advance(by: .seconds(60))
        }
        #expect(log.lines(atLeast: .warning).isEmpty)
    }
}

/// The polling service wires the policy from the configuration: each provider's fallbacks (even
/// one no rule uses) and one rate limit per provider from `requests_per_minute` or the service.
@Suite struct PollingServiceWiringTests {
    typealias F = EngineFixtures

    @Test func fallbacksAndRateLimitsComeFromTheConfiguration() async throws {
        let clock = ManualClock()
        let primary = FaultyProvider(name: "feed", batchSize: 1, clock: clock,
                                     script: [.fail(ProviderError(.permanent, "HTTP 403"))])
        let backup = FaultyProvider(name: "backup", batchSize: 1, requestsPerMinute: 6, clock: clock) // one every 10 s
        var configuration = F.configuration(rules: [F.rule("r", .above(F.decimal("1")), symbols: ["A", "B"])], providers: ["feed", "backup"])
        configuration.providers[0].fallback = ["backup"]
        configuration.providers[0].requestsPerMinute = 30 // one every 2 s, where the service documents nothing
        let store = try SQLiteAlertStore.inMemory()
        let evaluator = try await RuleEvaluator(configuration: configuration, store: store, doorbell: Doorbell(), logger: F.logger,
                                                now: Timestamp(seconds: 0))
        let service = PollingService(
            initial: .init(configuration: configuration, providers: ["feed": primary, "backup": backup], sinks: [:]),
            consumers: [evaluator], clock: clock, wallClock: ManualWallClock().function,
            logger: F.logger, observer: SilentDaemonObserver())
        let task = Task { try await service.run() }
        defer { task.cancel() }
        // feed's first batch fails at 0 s; the fallback takes A at once and B 10 s later (its own limit).
        try await PollingPolicyPollerTests.waitForCalls(backup, 1)
        try await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(9_999))
        #expect(backup.calls.count == 1)
        clock.advance(by: .milliseconds(1))
        try await PollingPolicyPollerTests.waitForCalls(backup, 2)
        #expect(backup.calls.map(\.symbols) == [["A"], ["B"]])
        #expect(backup.callTimes == [.zero, .seconds(10)])
        #expect(primary.calls.map(\.symbols) == [["A"]])
        // At the next poll feed answers again; its two requests are 2 s apart.
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(50))
        try await PollingPolicyPollerTests.waitForCalls(primary, 2)
        try await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(1_999))
        #expect(primary.calls.count == 2)
        clock.advance(by: .milliseconds(1))
        try await PollingPolicyPollerTests.waitForCalls(primary, 3)
        #expect(primary.callTimes == [.zero, .seconds(60), .seconds(62)])
    }
}
