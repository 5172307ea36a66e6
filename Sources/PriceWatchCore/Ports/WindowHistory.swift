/// What a source's window rules need from the store when the engine is built (at start, after
/// a failed commit, or for a source a reload adds or gives a longer window).
///
/// Window bases are looked up at *quote time* minus the window, so the history is loaded from
/// the newest stored quote of the source minus its longest window (with the anchor before it),
/// never from the wall clock: quotes that lag the wall clock (a delayed feed, catching up after
/// downtime, a replay) find the same bases after a restart as in an uninterrupted run.
extension QuoteHistoryStore {
    /// The newest stored quote of `provider` and `symbol` and, with a `window`, every quote from
    /// that quote's time minus `window` on, preceded by the newest one before that (the anchor a
    /// base may need); oldest first. Empty when nothing is stored.
    public func windowHistory(provider: String, symbol: String, window: RuleDuration?) async throws -> [HistoryPoint] {
        // `history` always includes the newest quote overall: asked from the end of time, that
        // quote is all it returns.
        let newest = try await history(provider: provider, symbol: symbol, since: Timestamp(milliseconds: .max))
        guard let latest = newest.last else { return [] }
        guard let window else { return [latest] }
        return try await history(provider: provider, symbol: symbol, since: latest.time.subtracting(window))
    }
}
