import Logging
import PriceWatchCore

/// The housekeeping job: prunes the quote history past `retention`, the alert log and the
/// states of removed rules (``OutboxRetention``), and lets SQLite refresh its planner
/// statistics (`PRAGMA optimize`).
///
/// It runs from the ``JobScheduler`` (hourly, and once at start when a run was missed within
/// the last day), so it also runs while markets are closed and no poll commits anything. A
/// failure is the job's own: the scheduler logs and records it; polling and evaluation never
/// see it. Each step runs even when an earlier one failed.
public struct Housekeeping: Sendable {
    /// The job's name in logs and in the store.
    public static let name = "housekeeping"
    /// Every hour, on the hour (UTC).
    public static let schedule = CalendarSchedule(.hourly(minute: 0))
    /// A run missed while the daemon was down is made up at start within a day.
    public static var grace: RuleDuration { RuleDuration(seconds: 86_400)! }

    private let store: any RetentionStore
    private let configuration: @Sendable () async -> Configuration
    private let wallClock: @Sendable () -> Timestamp
    private let logger: Logger

    /// - Parameter configuration: the configuration in force (read at each run, so a reload's
    ///   `retention` and rules apply from the next run).
    public init(store: any RetentionStore, configuration: @escaping @Sendable () async -> Configuration,
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

    /// One housekeeping pass at the wall clock's now.
    public func run() async throws {
        let now = wallClock()
        let configuration = await self.configuration()
        var failures: [String] = []
        do {
            let removed = try await store.pruneHistory(before: now.subtracting(configuration.retention))
            if removed > 0 { logger.debug("pruned \(removed) quotes older than \(configuration.retention)") }
        } catch {
            failures.append("pruning the quote history: \(error)")
        }
        do {
            try await OutboxRetention.prune(store: store, configuration: configuration, now: now, logger: logger)
        } catch {
            failures.append("pruning the alert log: \(error)")
        }
        do {
            try await store.optimize()
        } catch {
            failures.append("optimizing the database: \(error)")
        }
        if !failures.isEmpty { throw HousekeepingError(failures: failures) }
    }
}

/// What went wrong in one housekeeping pass: every failed step, in order.
public struct HousekeepingError: Error, Sendable, CustomStringConvertible {
    public let failures: [String]
    public var description: String { failures.joined(separator: "; ") }
}
