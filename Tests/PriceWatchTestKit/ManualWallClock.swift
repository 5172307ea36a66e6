import PriceWatchCore
import Synchronization

/// A wall clock a test sets by hand (the daemon's `wallClock` function).
public final class ManualWallClock: Sendable {
    private let current: Mutex<Timestamp>

    public init(_ start: Timestamp = Timestamp(seconds: 1_727_875_800)) { current = Mutex(start) }

    public var now: Timestamp { current.withLock { $0 } }

    public func advance(seconds: Int64) { current.withLock { $0 = Timestamp(milliseconds: $0.milliseconds + seconds * 1000) } }

    public func advance(milliseconds: Int64) { current.withLock { $0 = Timestamp(milliseconds: $0.milliseconds + milliseconds) } }

    /// The function to hand to the code under test.
    public var function: @Sendable () -> Timestamp { { [self] in self.now } }
}
