/// A token-bucket rate limit: on average one request per ``interval``, with bursts of up to
/// ``capacity`` requests after a quiet spell.
///
/// Kept in its exact, integer form (the "generic cell rate algorithm"): instead of a token
/// count it remembers when the bucket will next be full, so spacing is exact to the nanosecond
/// and there is no drift from floating-point refills. Pure: time is an offset from any fixed
/// origin on a monotonic clock, passed in.
///
/// ``reserve(at:)`` takes a token at once and returns how long the caller must wait before
/// sending; callers that wait concurrently are therefore spaced correctly, in arrival order.
public struct TokenBucket: Sendable, Hashable {
    /// The time one token takes to refill.
    public let interval: Duration
    /// The most requests that may go out back to back.
    public let capacity: Int
    /// When the bucket would have no debt and no spare tokens ("theoretical arrival time").
    private var fullAt: Duration?

    /// A bucket refilling at `requestsPerMinute` (greater than zero) holding `capacity`
    /// tokens; by default one second's worth of requests, at least one.
    public init(requestsPerMinute: Double, capacity: Int? = nil) {
        let perMinute = requestsPerMinute.isFinite && requestsPerMinute > 0 ? requestsPerMinute : 1
        // 60 s in nanoseconds over the rate; a rate above 60e9 per minute would be 0 ns, so at least 1 ns.
        let nanoseconds = max((60_000_000_000 / perMinute).rounded(), 1)
        self.interval = .nanoseconds(Int64(min(nanoseconds, Double(Int64.max / 2))))
        self.capacity = max(capacity ?? Int((perMinute / 60).rounded(.down)), 1)
    }

    /// Takes one token at `now` and returns how long to wait before the request may be sent
    /// (zero when a token is available).
    public mutating func reserve(at now: Duration) -> Duration {
        let tolerance = interval * (capacity - 1)
        let base = max(fullAt ?? now, now)
        fullAt = base + interval
        let sendAt = base - tolerance
        return sendAt > now ? sendAt - now : .zero
    }
}
