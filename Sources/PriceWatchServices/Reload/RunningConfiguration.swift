import PriceWatchCore
import Synchronization

/// The configuration the daemon runs now: one owner, read by every service that needs more
/// than its own part (jobs, the dashboard, the delivery's urgent rules), and a stream of its
/// changes.
///
/// The ``ReloadCoordinator`` sets it once every subscriber has applied a new setup, so a
/// reader never sees a configuration that was refused. Reading it is a lock and a copy of a
/// reference: cheap enough for every delivery pass.
public final class RunningConfiguration: Sendable {
    private struct State {
        var configuration: Configuration
        var urgentRules: Set<String>
        /// Counted on first read (only `/metrics` reads it), then kept until the next set.
        var watchedSymbolCount: Int?
        var watchers: [Int: AsyncStream<Configuration>.Continuation] = [:]
        var nextWatcher = 0
    }

    private let state: Mutex<State>

    public init(_ configuration: Configuration) {
        state = Mutex(State(configuration: configuration, urgentRules: Self.urgentRules(of: configuration)))
    }

    /// The configuration that runs.
    public var current: Configuration { state.withLock { $0.configuration } }

    /// The rules whose alerts bypass quiet hours (`urgent = true`).
    public var urgentRules: Set<String> { state.withLock { $0.urgentRules } }

    /// How many distinct symbols the rules watch (``Configuration/allSymbols``), counted once
    /// per configuration: every `/metrics` scrape reads it, and at 50,000 symbols counting
    /// them again each time was 3% of the daemon's CPU.
    public var watchedSymbolCount: Int {
        state.withLock { state in
            if let count = state.watchedSymbolCount { return count }
            let count = state.configuration.allSymbols.count
            state.watchedSymbolCount = count
            return count
        }
    }

    /// Every configuration set from now on, in order; it ends when the caller stops iterating.
    public func changes() -> AsyncStream<Configuration> {
        let (stream, continuation) = AsyncStream<Configuration>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            defer { state.nextWatcher += 1 }
            state.watchers[state.nextWatcher] = continuation
            return state.nextWatcher
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.watchers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Makes `configuration` the running one and tells the watchers.
    public func set(_ configuration: Configuration) {
        let watchers = state.withLock { state in
            state.configuration = configuration
            state.urgentRules = Self.urgentRules(of: configuration)
            state.watchedSymbolCount = nil
            return Array(state.watchers.values)
        }
        for watcher in watchers { watcher.yield(configuration) }
    }

    private static func urgentRules(of configuration: Configuration) -> Set<String> {
        Set(configuration.rules.filter(\.urgent).map(\.id))
    }
}
