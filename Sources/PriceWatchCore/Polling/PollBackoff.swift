/// How a poll retries a failed batch: exponential backoff with jitter, `Retry-After`
/// honoured, a few attempts per poll at most, and never past the next poll.
///
/// The same shape as the outbox's ``RetrySchedule`` (delays double from ``initialDelay`` up to
/// ``maximumDelay``, each shortened by up to ``jitter`` of itself), scaled to poll intervals.
/// Pure: the caller passes the attempt number, the times and a jitter draw in `0..<1`.
public struct PollBackoff: Sendable, Hashable {
    /// The delay after the first failed attempt.
    public var initialDelay: Duration = .seconds(1)
    /// The longest delay between two attempts.
    public var maximumDelay: Duration = .seconds(30)
    /// Each delay is randomly shortened by up to this fraction, so many daemons polling one
    /// service after an outage do not all come back in the same second.
    public var jitter: Double = 0.2
    /// Attempts per batch and poll, the first included.
    public var maximumAttempts = 3
    /// The longest `Retry-After` taken at its word; longer requests are capped to this.
    public var maximumRetryAfter: Duration = .seconds(3_600)

    public init() {}

    public init(initialDelay: Duration, maximumDelay: Duration, jitter: Double, maximumAttempts: Int) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.jitter = jitter
        self.maximumAttempts = maximumAttempts
    }

    /// The delay after failed attempt number `attempt` (1 for the first): the exponential
    /// delay less its jitter, but never less than the service's `Retry-After`.
    public func delay(afterAttempt attempt: Int, retryAfterSeconds: Int64?, random: Double) -> Duration {
        var delay = initialDelay
        for _ in 1..<max(attempt, 1) where delay < maximumDelay { delay = delay * 2 }
        delay = min(delay, maximumDelay)
        let draw = random.isFinite ? min(max(random, 0), 0.999_999) : 0
        let fraction = min(max(jitter, 0), 1) * draw
        // Jitter in whole milliseconds, so delays stay exact for tests and logs.
        let milliseconds = delay.components.seconds * 1000 + delay.components.attoseconds / 1_000_000_000_000_000
        delay -= .milliseconds(Int64((Double(milliseconds) * fraction).rounded(.down)))
        if let retryAfter = retryAfter(retryAfterSeconds) { delay = max(delay, retryAfter) }
        return delay
    }

    /// `Retry-After` as a duration, capped; nil when the service gave none.
    public func retryAfter(_ seconds: Int64?) -> Duration? {
        guard let seconds, seconds > 0 else { return nil }
        return min(.seconds(seconds), maximumRetryAfter)
    }
}
