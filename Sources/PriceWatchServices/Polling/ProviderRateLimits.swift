import PriceWatchCore
import Synchronization

/// Each provider's rate limit, shared by everything that sends the provider requests: its own
/// poller, the pollers it is a fallback of, and the warm-up's history fetches (``BarWarmUp``),
/// so that together they never send more than the provider's `requests_per_minute`.
///
/// The polling service owns the update: each time polling (re)starts under a configuration it
/// calls ``update(for:)``; a provider whose rate did not change keeps its limiter and the
/// tokens it has spent, so a reload does not grant a burst.
public final class ProviderRateLimits<C: Clock<Duration>>: Sendable {
    private let clock: C
    private let limits = Mutex<[String: (perMinute: Double, limiter: RateLimiter<C>)]>([:])

    public init(clock: C) {
        self.clock = clock
    }

    /// The limiters of `setup`'s providers (the configured `requests_per_minute`, else the
    /// provider's own); providers without a limit have none.
    @discardableResult
    public func update(for setup: ServiceSetup) -> [String: RateLimiter<C>] {
        var wanted: [String: Double] = [:]
        for settings in setup.configuration.providers {
            guard let provider = setup.providers[settings.name],
                  let perMinute = settings.requestsPerMinute ?? provider.requestsPerMinute else { continue }
            wanted[settings.name] = perMinute
        }
        return limits.withLock { limits in
            var next: [String: (perMinute: Double, limiter: RateLimiter<C>)] = [:]
            for (name, perMinute) in wanted {
                if let kept = limits[name], kept.perMinute == perMinute {
                    next[name] = kept
                } else {
                    next[name] = (perMinute, RateLimiter(requestsPerMinute: perMinute, clock: clock))
                }
            }
            limits = next
            return next.mapValues(\.limiter)
        }
    }

    /// The limiter of provider `name`; nil when it has no limit (or is not configured).
    public func limiter(for name: String) -> RateLimiter<C>? {
        limits.withLock { $0[name]?.limiter }
    }

    /// Waits until provider `name` may be sent a request (at once when it has no limit).
    /// Throws when the task is cancelled while waiting.
    public func acquire(_ name: String) async throws {
        try await limiter(for: name)?.acquire()
    }
}

extension ProviderRateLimits: ProviderRequestBudget {
    /// ``acquire(_:)``: the same tokens as the pollers' batches.
    public func acquire(for provider: String) async throws {
        try await acquire(provider)
    }
}
