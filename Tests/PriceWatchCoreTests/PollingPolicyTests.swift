import Testing
@testable import PriceWatchCore

/// The pure polling policy: token bucket spacing, backoff delays, retry and failover
/// decisions, unknown-symbol parking, and data-health episodes.
@Suite("Polling policy")
struct PollingPolicyTests {
    static func quote(_ symbol: String) -> Quote { Quote(symbol: symbol, price: dec("1"), time: at(1_000)) }
    static let unknown = ProviderError(.unknownSymbol, "not found")
    static let serverError = ProviderError(.transient, "HTTP 500")

    // MARK: Token bucket

    @Test func aBucketOfOneSpacesRequestsByTheInterval() {
        var bucket = TokenBucket(requestsPerMinute: 60)
        #expect(bucket.interval == .seconds(1))
        #expect(bucket.capacity == 1)
        #expect(bucket.reserve(at: .zero) == .zero)
        #expect(bucket.reserve(at: .zero) == .seconds(1))
        #expect(bucket.reserve(at: .zero) == .seconds(2), "reservations queue up in arrival order")
        // Three requests are booked up to 2 s; at 2.5 s the next may go at 3 s.
        #expect(bucket.reserve(at: .milliseconds(2_500)) == .milliseconds(500))
    }

    @Test func aQuietBucketRefillsUpToItsCapacityAndNoFurther() {
        var bucket = TokenBucket(requestsPerMinute: 30, capacity: 3) // one token every 2 s
        #expect(bucket.interval == .seconds(2))
        for _ in 0..<3 { #expect(bucket.reserve(at: .zero) == .zero, "a full bucket sends a burst of 3") }
        #expect(bucket.reserve(at: .zero) == .seconds(2))
        // An hour of quiet refills 3 tokens, not 1,800.
        let later = Duration.seconds(3_600)
        for _ in 0..<3 { #expect(bucket.reserve(at: later) == .zero) }
        #expect(bucket.reserve(at: later) == .seconds(2))
    }

    @Test func theDefaultCapacityIsOneSecondsWorthAndFractionalRatesWork() {
        #expect(TokenBucket(requestsPerMinute: 1_200).capacity == 20)
        #expect(TokenBucket(requestsPerMinute: 5).capacity == 1)
        #expect(TokenBucket(requestsPerMinute: 5).interval == .seconds(12))
        #expect(TokenBucket(requestsPerMinute: 0.5).interval == .seconds(120))
    }

    // MARK: Backoff

    @Test func delaysDoubleUpToTheMaximumWithoutJitter() {
        let backoff = PollBackoff(initialDelay: .seconds(1), maximumDelay: .seconds(5), jitter: 0.2, maximumAttempts: 9)
        let delays = (1...5).map { backoff.delay(afterAttempt: $0, retryAfterSeconds: nil, random: 0) }
        #expect(delays == [.seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5)])
    }

    @Test func jitterShortensADelayByUpToItsFraction() {
        let backoff = PollBackoff(initialDelay: .seconds(1), maximumDelay: .seconds(30), jitter: 0.2, maximumAttempts: 3)
        #expect(backoff.delay(afterAttempt: 2, retryAfterSeconds: nil, random: 0.5) == .milliseconds(1_800))
        #expect(backoff.delay(afterAttempt: 1, retryAfterSeconds: nil, random: 0.999_999) == .milliseconds(801))
        #expect(backoff.delay(afterAttempt: 1, retryAfterSeconds: nil, random: 7) == .milliseconds(801), "draws are clamped")
    }

    @Test func retryAfterIsAFloorAndIsCapped() {
        let backoff = PollBackoff()
        #expect(backoff.delay(afterAttempt: 1, retryAfterSeconds: 7, random: 0.5) == .seconds(7))
        #expect(backoff.delay(afterAttempt: 1, retryAfterSeconds: 0, random: 0) == .seconds(1))
        #expect(backoff.delay(afterAttempt: 1, retryAfterSeconds: 86_400 * 30, random: 0) == .seconds(3_600))
    }

    // MARK: Retry and failover decisions

    @Test func aRetryableErrorIsRetriedUntilTheAttemptsRunOut() {
        var policy = ProviderPolicy(backoff: PollBackoff(initialDelay: .seconds(1), maximumDelay: .seconds(30), jitter: 0, maximumAttempts: 3))
        let next = Duration.seconds(60)
        #expect(policy.afterFailure(Self.serverError, attempt: 1, now: .zero, nextPoll: next, random: 0) == .retry(after: .seconds(1)))
        #expect(policy.access(at: .seconds(1)) == .normal, "retrying is not failing yet")
        #expect(policy.afterFailure(Self.serverError, attempt: 2, now: .seconds(1), nextPoll: next, random: 0) == .retry(after: .seconds(2)))
        #expect(policy.afterFailure(Self.serverError, attempt: 3, now: .seconds(3), nextPoll: next, random: 0) == .giveUp)
        #expect(policy.isFailing)
        #expect(policy.access(at: .seconds(60)) == .probe)
        policy.afterSuccess()
        #expect(policy.access(at: .seconds(60)) == .normal)
    }

    @Test func aRetryThatWouldLandAtOrAfterTheNextPollIsDropped() {
        var policy = ProviderPolicy(backoff: PollBackoff(initialDelay: .seconds(4), maximumDelay: .seconds(30), jitter: 0, maximumAttempts: 5))
        #expect(policy.afterFailure(Self.serverError, attempt: 1, now: .seconds(56), nextPoll: .seconds(60), random: 0) == .giveUp)
        var other = ProviderPolicy(backoff: PollBackoff(initialDelay: .seconds(4), maximumDelay: .seconds(30), jitter: 0, maximumAttempts: 5))
        #expect(other.afterFailure(Self.serverError, attempt: 1, now: .seconds(55), nextPoll: .milliseconds(59_001), random: 0) == .retry(after: .seconds(4)))
    }

    @Test func permanentErrorsAreNeverRetried() {
        var policy = ProviderPolicy()
        #expect(policy.afterFailure(ProviderError(.permanent, "HTTP 403"), attempt: 1, now: .zero, nextPoll: .seconds(60), random: 0) == .giveUp)
        #expect(policy.isFailing)
    }

    @Test func aFailingProviderIsProbedOnceWithoutRetries() {
        var policy = ProviderPolicy()
        _ = policy.afterFailure(ProviderError(.permanent, "HTTP 401"), attempt: 1, now: .zero, nextPoll: .seconds(60), random: 0)
        #expect(policy.access(at: .seconds(60)) == .probe)
        #expect(policy.afterFailure(Self.serverError, attempt: 1, now: .seconds(60), nextPoll: .seconds(120), random: 0) == .giveUp,
                "a probe is not retried")
    }

    @Test func retryAfterWithinThePollIsWaitedFor() {
        var policy = ProviderPolicy(backoff: PollBackoff(initialDelay: .seconds(1), maximumDelay: .seconds(30), jitter: 0, maximumAttempts: 3))
        let limited = ProviderError(.rateLimited, "HTTP 429", retryAfterSeconds: 20)
        #expect(policy.afterFailure(limited, attempt: 1, now: .zero, nextPoll: .seconds(60), random: 0) == .retry(after: .seconds(20)))
    }

    @Test func retryAfterBeyondTheNextPollBlocksTheProviderUntilThen() {
        var policy = ProviderPolicy()
        let limited = ProviderError(.rateLimited, "HTTP 429", retryAfterSeconds: 150)
        #expect(policy.afterFailure(limited, attempt: 1, now: .seconds(10), nextPoll: .seconds(60), random: 0) == .giveUp)
        #expect(policy.access(at: .seconds(60)) == .blocked(until: .seconds(160)))
        #expect(policy.access(at: .seconds(120)) == .blocked(until: .seconds(160)))
        #expect(policy.access(at: .seconds(160)) == .probe, "after Retry-After the provider is probed")
    }

    // MARK: Unknown symbols

    @Test func aSymbolUnknownThreeTimesInARowIsParkedAndRecheckedHourly() {
        var policy = ProviderPolicy(unknownSymbolLimit: 3, unknownSymbolRecheck: .seconds(3_600))
        let symbols = ["AAPL", "NOPE"]
        let answer: [String: Result<Quote, ProviderError>] = ["AAPL": .success(Self.quote("AAPL")), "NOPE": .failure(Self.unknown)]
        #expect(policy.record(answer, asked: symbols, at: .seconds(0)) == [])
        #expect(policy.record(answer, asked: symbols, at: .seconds(60)) == [])
        #expect(policy.symbolsToFetch(symbols, at: .seconds(120)) == symbols)
        #expect(policy.record(answer, asked: symbols, at: .seconds(120)) == [.parked(symbol: "NOPE", count: 3, reason: "not found")])
        #expect(policy.symbolsToFetch(symbols, at: .seconds(180)) == ["AAPL"])
        #expect(policy.isParked("NOPE", at: .seconds(3_719)))
        #expect(policy.symbolsToFetch(symbols, at: .seconds(3_720)) == symbols, "rechecked an hour after parking")
        #expect(policy.record(answer, asked: symbols, at: .seconds(3_720)) == [], "parked again without a second log line")
        #expect(policy.symbolsToFetch(symbols, at: .seconds(3_780)) == ["AAPL"])
        let known: [String: Result<Quote, ProviderError>] = ["NOPE": .success(Self.quote("NOPE"))]
        #expect(policy.record(known, asked: ["NOPE"], at: .seconds(7_320)) == [.recognized(symbol: "NOPE")])
        #expect(policy.symbolsToFetch(symbols, at: .seconds(7_380)) == symbols)
    }

    @Test func aQuoteOrASilentAnswerBetweenUnknownAnswersBehavesAsItShould() {
        var policy = ProviderPolicy(unknownSymbolLimit: 3)
        let unknownAnswer: [String: Result<Quote, ProviderError>] = ["X": .failure(Self.unknown)]
        _ = policy.record(unknownAnswer, asked: ["X"], at: .zero)
        _ = policy.record(unknownAnswer, asked: ["X"], at: .zero)
        _ = policy.record(["X": .success(Self.quote("X"))], asked: ["X"], at: .zero)
        _ = policy.record(unknownAnswer, asked: ["X"], at: .zero)
        _ = policy.record(unknownAnswer, asked: ["X"], at: .zero)
        #expect(policy.symbolsToFetch(["X"], at: .seconds(1)) == ["X"], "a quote resets the count")
        _ = policy.record([:], asked: ["X"], at: .zero)
        #expect(policy.record(unknownAnswer, asked: ["X"], at: .zero).count == 1, "a missing answer neither counts nor resets")
    }

    // MARK: Data health

    @Test func aProviderFailingWarnsOnceAtTheThresholdAndOnceOnRecovery() {
        var health = DataHealth(symbols: [], staleAfter: .seconds(900), failureWarningAfter: 3, now: .zero)
        #expect(health.pollFinished(failure: "HTTP 500") == nil)
        #expect(health.pollFinished(failure: "HTTP 502") == nil)
        #expect(health.pollFinished(failure: "HTTP 503") == .providerFailing(consecutivePolls: 3, reason: "HTTP 503"))
        #expect(health.pollFinished(failure: "HTTP 503") == nil, "one warning per episode")
        #expect(health.pollFinished(failure: nil) == .providerRecovered(failedPolls: 4))
        #expect(health.pollFinished(failure: nil) == nil)
        #expect(health.pollFinished(failure: "HTTP 500") == nil)
        #expect(health.pollFinished(failure: nil) == nil, "no recovery line without a warning")
    }

    @Test func aSymbolWithoutFreshQuotesWarnsOnceWithTheReasonThenRecovers() {
        var health = DataHealth(symbols: ["AAPL", "MSFT"], staleAfter: .seconds(900), failureWarningAfter: 3, now: .zero)
        #expect(health.observe("AAPL", .fresh, at: .seconds(60)) == nil)
        #expect(health.observe("MSFT", .notFresh(reason: "HTTP 500"), at: .seconds(60)) == nil)
        #expect(health.staleSymbols(at: .seconds(899)) == [])
        #expect(health.staleSymbols(at: .seconds(900)) == [.symbolStale(symbol: "MSFT", age: .seconds(900), reason: "HTTP 500")])
        #expect(health.staleSymbols(at: .seconds(959)) == [])
        #expect(health.staleSymbols(at: .seconds(960)) == [.symbolStale(symbol: "AAPL", age: .seconds(900), reason: "no poll has brought a new quote")])
        #expect(health.staleSymbols(at: .seconds(2_000)) == [], "one warning each per episode")
        #expect(health.observe("MSFT", .fresh, at: .seconds(1_000)) == .symbolFresh(symbol: "MSFT", age: .seconds(1_000)))
        #expect(health.staleSymbols(at: .seconds(1_001)) == [])
    }

    @Test func aClosedMarketOrAParkedSymbolIsNotStale() {
        var health = DataHealth(symbols: ["AAPL"], staleAfter: .seconds(900), failureWarningAfter: 3, now: .zero)
        for minute in 1...60 {
            #expect(health.observe("AAPL", .notExpected, at: .seconds(Int64(minute) * 60)) == nil)
            #expect(health.staleSymbols(at: .seconds(Int64(minute) * 60)) == [])
        }
        // The market reopens at 60 min: the clock starts there, not at the last fresh quote.
        _ = health.observe("AAPL", .notFresh(reason: "the latest quote was already seen"), at: .seconds(3_660))
        #expect(health.staleSymbols(at: .seconds(4_499)) == [])
        #expect(health.staleSymbols(at: .seconds(4_500)).count == 1)
    }

    @Test func marketStatesOtherThanRegularTradingAreNotTrading() {
        #expect(DataHealth.isTrading(nil))
        #expect(DataHealth.isTrading("REGULAR"))
        #expect(DataHealth.isTrading("open"))
        for state in ["CLOSED", "PRE", "POST", "POSTPOST", "PREPRE"] { #expect(!DataHealth.isTrading(state)) }
    }
}
