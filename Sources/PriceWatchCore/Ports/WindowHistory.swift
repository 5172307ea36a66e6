/// One source's part of what the engine reads from the store when it is built (at start, after
/// a failed commit, or for a source a reload adds or gives a longer window): the newest stored
/// quote and, with a window, the history that window needs.
///
/// Window bases are looked up at *quote time* minus the window, so the history is loaded from
/// the newest stored quote of the source minus its longest window (with the anchor before it),
/// never from the wall clock: quotes that lag the wall clock (a delayed feed, catching up after
/// downtime, a replay) find the same bases after a restart as in an uninterrupted run.
public struct WindowHistoryRequest: Sendable, Hashable {
    public let source: QuoteSource
    /// The longest window of the source's rules; nil: only the newest quote is needed.
    public let window: RuleDuration?

    public init(source: QuoteSource, window: RuleDuration?) {
        self.source = source
        self.window = window
    }

    /// The newest stored quote and, with a `window`, every quote from that quote's time minus
    /// `window` on, preceded by the newest one before that (the anchor a base may need); oldest
    /// first; empty when nothing is stored. `history(since)` reads the source's stored quotes
    /// at or after `since`, oldest first, plus the newest one before `since` (the anchor) and
    /// always the newest one overall.
    public func read(_ history: (_ since: Timestamp) throws -> [HistoryPoint]) rethrows -> [HistoryPoint] {
        // `history` always includes the newest quote overall: asked from the end of time, that
        // quote is all it returns.
        guard let latest = try history(Timestamp(milliseconds: .max)).last else { return [] }
        guard let window else { return [latest] }
        return try history(latest.time.subtracting(window))
    }
}
