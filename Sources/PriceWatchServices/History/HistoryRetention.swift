import Logging
import PriceWatchCore

/// The price-history retention job: deletes candles older than `history_retention` (its own
/// setting, independent of the quote `retention` rules read back).
///
/// Runs daily at 03:30 UTC from the ``JobScheduler``, and once at start when a run was missed
/// within the last two days. A failure is logged and recorded by the scheduler.
public struct HistoryRetention: Sendable {
    /// The job's name in logs and in the store.
    public static let name = "history-retention"
    public static let schedule = CalendarSchedule(.daily(hour: 3, minute: 30))
    /// A run missed while the daemon was down is made up at start within two days.
    public static var grace: RuleDuration { RuleDuration(seconds: 2 * 86_400)! }

    private let store: any CandleStore
    private let configuration: @Sendable () async -> Configuration
    private let wallClock: @Sendable () -> Timestamp
    private let logger: Logger

    /// - Parameter configuration: the configuration in force, read at each run.
    public init(store: any CandleStore, configuration: @escaping @Sendable () async -> Configuration,
                wallClock: @escaping @Sendable () -> Timestamp, logger: Logger) {
        self.store = store
        self.configuration = configuration
        self.wallClock = wallClock
        self.logger = logger
    }

    /// The job for the scheduler.
    public var job: ScheduledJob {
        ScheduledJob(name: Self.name, schedule: Self.schedule, grace: Self.grace) { _ in try await run() }
    }

    /// One pass at the wall clock's now.
    public func run() async throws {
        let retention = await configuration().historyRetention
        let removed = try await store.pruneCandles(before: wallClock().subtracting(retention))
        if removed > 0 { logger.debug("pruned \(removed) candles older than \(retention)") }
    }
}
