/// The quote history role of the store: what rules with a window or a repeat check read back.
/// Quotes are written by ``RuleStateStore/commit(_:)``; old ones go through ``RetentionStore``.
public protocol QuoteHistoryStore: Sendable {
    /// For each request, in order, what ``WindowHistoryRequest/read(_:)`` makes of the
    /// source's stored quotes: all of them from one consistent snapshot and in one call, since
    /// an engine is built from thousands of sources and a round trip to the database per
    /// source would be most of the daemon's start-up.
    func windowHistories(_ requests: [WindowHistoryRequest]) async throws -> [[HistoryPoint]]

    /// The newest stored quote of every provider and symbol, with its previous close, currency
    /// and exchange: what portfolio rules start from after a restart (so replayed older quotes
    /// are repeats for them too).
    func latestQuoteDetails() async throws -> [QuoteSource: Quote]
}
