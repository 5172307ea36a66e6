/// When to try a failed delivery again: exponential backoff with jitter, `Retry-After`
/// honoured, and a maximum age after which the delivery goes to the dead letters.
///
/// Pure: the caller passes the attempt count, the times and a jitter fraction in `0..<1` (from
/// its random source), and gets a decision back.
public struct RetrySchedule: Sendable, Hashable {
    /// The delay after the first failure.
    public var initialDelay: Int64 = 1_000
    /// The longest delay between two attempts.
    public var maximumDelay: Int64 = 300_000
    /// Give up on a delivery this long after it was queued.
    public var maximumAge: Int64 = 24 * 3_600_000
    /// Each delay is randomly shortened by up to this fraction, so retries of many alerts do
    /// not arrive at a recovering receiver all at once.
    public var jitter: Double = 0.2

    public init() {}

    public init(initialDelay: Int64, maximumDelay: Int64, maximumAge: Int64, jitter: Double) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.maximumAge = maximumAge
        self.jitter = jitter
    }

    /// The outcome of a failed attempt number `attempt` (1 for the first) of a delivery queued
    /// at `createdAt`, failing at `now`.
    public func afterFailure(_ error: SinkError, attempt: Int, createdAt: Timestamp, now: Timestamp, random: Double) -> DeliveryOutcome.Result {
        guard error.isRetryable else { return .dead(error: error.message) }
        let exponent = min(max(attempt - 1, 0), 40)
        var delay = min(initialDelay.multipliedReportingOverflow(by: 1 << min(exponent, 30)).partialValue, maximumDelay)
        if delay <= 0 { delay = maximumDelay }
        delay -= Int64(Double(delay) * jitter * min(max(random, 0), 0.999_999))
        if let retryAfter = error.retryAfterSeconds, retryAfter > 0 {
            delay = max(delay, min(retryAfter, 86_400) * 1000)
        }
        let next = Timestamp(milliseconds: now.milliseconds + delay)
        if next.milliseconds - createdAt.milliseconds > maximumAge {
            return .dead(error: "\(error.message) (gave up after \(attempt) attempt(s) over \((now.milliseconds - createdAt.milliseconds) / 1000)s)")
        }
        return .retry(at: next, error: error.message)
    }
}
