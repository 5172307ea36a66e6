import PriceWatchCore
import Synchronization

/// One provider's rate limit on the injected clock: a ``TokenBucket`` shared by everything
/// that sends the provider requests (its own poller and any poller using it as a fallback).
public final class RateLimiter<C: Clock<Duration>>: Sendable {
    private let clock: C
    private let origin: C.Instant
    private let bucket: Mutex<TokenBucket?>

    /// A limiter of `requestsPerMinute` (nil: unlimited).
    public init(requestsPerMinute: Double?, clock: C) {
        self.clock = clock
        self.origin = clock.now
        self.bucket = Mutex(requestsPerMinute.map { TokenBucket(requestsPerMinute: $0) })
    }

    /// The time between two requests at the sustained rate (nil: unlimited).
    public var interval: Duration? { bucket.withLock { $0?.interval } }

    /// Waits until the next request may be sent. Throws when the task is cancelled while waiting.
    public func acquire() async throws {
        let now = clock.now
        let wait = bucket.withLock { bucket -> Duration in
            guard var current = bucket else { return .zero }
            defer { bucket = current }
            return current.reserve(at: origin.duration(to: now))
        }
        guard wait > .zero else { return }
        try await clock.sleep(until: now.advanced(by: wait), tolerance: nil)
    }
}
