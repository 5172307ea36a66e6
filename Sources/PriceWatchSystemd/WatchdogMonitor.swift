import Synchronization

/// Judges whether the scheduler makes real progress: every poller must finish a poll within
/// its progress window, measured on a monotonic clock.
///
/// A poller that polls every `interval` finishes a poll at least once per interval while it
/// is healthy; a poll may run long (slow services, retries, rate limits), so the window is
/// twice the interval plus a fixed grace (two minutes by default). A poller that has not
/// finished a poll within its window is stalled; while any is, ``stalledPollers()`` names it
/// and the watchdog withholds its pings.
///
/// Pure apart from reading its clock; safe to call from any task.
public final class WatchdogMonitor<C: Clock<Duration>>: Sendable {
    /// A poller that has not finished a poll within its window.
    public struct Stall: Sendable, Hashable {
        public var poller: String
        /// How long ago its last poll finished (or polling started).
        public var silentFor: Duration
        /// The window it was expected to finish a poll in.
        public var window: Duration
    }

    private struct Expectation {
        var window: Duration
        var lastProgress: C.Instant
    }

    private let clock: C
    private let grace: Duration
    private let expectations = Mutex<[String: Expectation]>([:])

    public init(clock: C, grace: Duration = .seconds(120)) {
        self.clock = clock
        self.grace = grace
    }

    /// The progress window of a poller polling every `interval`.
    public func window(forInterval interval: Duration) -> Duration {
        interval * 2 + grace
    }

    /// Sets the pollers that run from now on, by name with their interval (at start and
    /// after each reload). A new poller's window starts now; a poller known before keeps its
    /// last progress, so reloading (even a rejected reload) never feeds a stuck one.
    public func expect(pollers: [String: Duration]) {
        let now = clock.now
        expectations.withLock { expectations in
            expectations = pollers.reduce(into: [:]) { result, poller in
                let (name, interval) = poller
                result[name] = Expectation(window: window(forInterval: interval),
                                           lastProgress: expectations[name]?.lastProgress ?? now)
            }
        }
    }

    /// A poller finished a poll.
    public func progressed(_ poller: String) {
        let now = clock.now
        expectations.withLock { $0[poller]?.lastProgress = now }
    }

    /// The pollers past their window, by name.
    public func stalledPollers() -> [Stall] {
        let now = clock.now
        return expectations.withLock { expectations in
            expectations.compactMap { name, expectation in
                let silence = expectation.lastProgress.duration(to: now)
                return silence > expectation.window
                    ? Stall(poller: name, silentFor: silence, window: expectation.window) : nil
            }
        }.sorted { $0.poller < $1.poller }
    }
}
