import Logging
import PriceWatchCore

/// How long the alert log and the states of removed rules are kept, and the pruning of both.
///
/// - Alerts whose deliveries are all delivered or dead are deleted, with their deliveries,
///   once they were queued longer ago than the log retention: the main file's `retention` or
///   30 days, whichever is longer. An alert with a pending delivery is never deleted.
/// - The state of a rule-and-symbol pair that the configuration no longer has (a removed rule,
///   a symbol removed from a rule) is deleted once its last alert is older than that same
///   retention, or at once when it never alerted. A rule removed and added back within the
///   retention therefore keeps its state (its `once`, its cooldown, its fired phase).
public enum OutboxRetention {
    /// The shortest time the alert log is kept.
    public static let minimumLogRetention = RuleDuration(seconds: 30 * 86_400)!

    /// How long the alert log is kept under `configuration`.
    public static func logRetention(_ configuration: Configuration) -> RuleDuration {
        max(configuration.retention, minimumLogRetention)
    }

    /// Deletes what is past the retention; run with the quote history pruning (hourly).
    public static func prune(store: any RetentionStore, configuration: Configuration, now: Timestamp, logger: Logger) async throws {
        let retention = logRetention(configuration)
        let cutoff = now.subtracting(retention)
        let alerts = try await store.pruneAlerts(before: cutoff)
        if alerts > 0 { logger.debug("pruned \(alerts) delivered or dead alerts older than \(retention)") }
        let notifications = try await store.pruneNotifications(before: cutoff)
        if notifications > 0 { logger.debug("pruned \(notifications) delivered or dead notifications older than \(retention)") }
        var live: Set<RuleStateKey> = []
        for rule in configuration.rules {
            for symbol in rule.symbols { live.insert(RuleStateKey(rule: rule.id, symbol: symbol)) }
        }
        let states = try await store.pruneRuleStates(keeping: live, lastAlertBefore: cutoff)
        if states > 0 { logger.debug("pruned \(states) states of rules no longer configured") }
    }
}
