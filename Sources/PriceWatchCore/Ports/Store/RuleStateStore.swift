/// The rule evaluator's store role: the per-rule states it resumes from, and the one
/// transaction that saves a poll's outcome.
///
/// Every role port of the store (this one, ``QuoteHistoryStore``, ``OutboxStore``,
/// ``AlertLogStore``, ``RetentionStore``, ``JobRunStore``) shares these rules; a service
/// depends only on the roles it uses, and the SQLite store implements them all:
///
/// - the work never blocks the caller's thread on I/O: it runs on the store's own executor;
/// - every method is safe to call from any task;
/// - a method either does all it says or throws and changes nothing.
public protocol RuleStateStore: Sendable {
    /// Every stored rule state, keyed by rule id and symbol, with the fingerprint it was
    /// computed under.
    func ruleStates() async throws -> [RuleStateKey: StoredRuleState]

    /// Writes one poll's outcome in one transaction: its quotes, rule states, and fired alerts
    /// each queued in the outbox for its sinks. All of it is written, or none: a crash never
    /// leaves an alert without the state that produced it, or the reverse. An alert whose id
    /// is already stored (a firing replayed after a crash) adds nothing.
    func commit(_ commit: StoreCommit) async throws
}
