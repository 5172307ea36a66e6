import PriceWatchCore

/// The evaluator takes the new rules (``RuleEvaluator/reconfigure(_:now:)``); it refuses the
/// configuration when the rule state cannot be loaded from the store.
extension RuleEvaluator: ConfigurationSubscriber {
    public func apply(_ setup: ServiceSetup, now: Timestamp) async throws {
        try await reconfigure(setup.configuration, now: now)
    }
}
