/// What the daemon remembers of news across restarts (`docs/events.md`, "News"): when each
/// news rule started watching, and which stories each symbol's feed has listed.
///
/// Implementations keep both durably; the time a rule started is written once and kept until
/// the rule is forgotten, so a restart is not a new start.
public protocol NewsLedgerStore: Sendable {
    /// When each of `rules` started watching: the start already recorded, or `now`, recorded
    /// now for a rule seen the first time. Starts of rules not in `rules` are forgotten (a rule
    /// removed or disabled starts afresh when it comes back).
    func newsRuleStarts(_ rules: [String], now: Timestamp) async throws -> [String: Timestamp]
    /// The headlines among `headlines` (of one symbol's feed) whose story was not seen before:
    /// neither its guid nor its link was recorded for that symbol.
    func unseenHeadlines(_ headlines: [NewsHeadline]) async throws -> [NewsHeadline]
    /// Records the stories of `headlines` as seen at `now`.
    func recordSeenHeadlines(_ headlines: [NewsHeadline], now: Timestamp) async throws
    /// Forgets the stories seen, and published, before `cutoff`; returns how many.
    @discardableResult
    func forgetHeadlines(seenBefore cutoff: Timestamp) async throws -> Int
}
