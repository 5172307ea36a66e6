import FoundationEssentials
import PriceWatchCore

/// The current wall-clock time, injected into providers that need "now" (a quote time when
/// the service gives none, the market state derived from trading hours) so tests can fix it.
public typealias WallClock = @Sendable () -> Timestamp

/// The system's wall clock.
public enum SystemWallClock {
    public static let now: WallClock = {
        Timestamp(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }
}
