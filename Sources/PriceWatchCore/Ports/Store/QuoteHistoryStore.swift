/// The quote history role of the store: what rules with a window or a repeat check read back.
/// Quotes are written by ``RuleStateStore/commit(_:)``; old ones go through ``RetentionStore``.
public protocol QuoteHistoryStore: Sendable {
    /// The stored quotes of one provider and symbol at or after `since`, oldest first, plus
    /// the newest one before `since` (the anchor a window base may need) and always the newest
    /// one overall (for repeat detection).
    func history(provider: String, symbol: String, since: Timestamp) async throws -> [HistoryPoint]
}
