/// Which of a feed's headlines go to which news rule (`docs/events.md`, "News"). Pure.
///
/// A headline is sent to a rule when all of these hold:
/// - the store has not seen the story before (the caller passes only unseen ones: neither its
///   guid nor its link was in the symbol's feed at an earlier read);
/// - it was published at or after the rule started watching (no flood of old headlines on a
///   rule's first read);
/// - it was published at most ``NewsSettings/maximumAge`` before now;
/// - it matches the rule's `match`.
public enum NewsSelection {
    /// One headline for one rule.
    public struct Pick: Sendable, Hashable {
        public var rule: EventRule
        public var headline: NewsHeadline
    }

    /// `headlines` with each story once: a headline whose guid or link an earlier one of the
    /// list has is dropped (feeds list a story twice under a new guid, or with the same guid
    /// and a new link).
    public static func distinctStories(_ headlines: [NewsHeadline]) -> [NewsHeadline] {
        var guids = Set<String>()
        var links = Set<String>()
        var distinct: [NewsHeadline] = []
        for headline in headlines where !guids.contains(headline.guid) && !links.contains(headline.link) {
            guids.insert(headline.guid)
            links.insert(headline.link)
            distinct.append(headline)
        }
        return distinct
    }

    /// The picks among `unseen` (headlines of `symbol`'s feed), for `rules` (the enabled news
    /// rules that watch `symbol`), with each rule's start in `starts`; in the feed's order,
    /// rule by rule. A rule without a start picks nothing.
    public static func picks(unseen: [NewsHeadline], rules: [EventRule], starts: [String: Timestamp],
                             now: Timestamp) -> [Pick] {
        let oldest = now.milliseconds - NewsSettings.maximumAge.seconds * 1000
        var picks: [Pick] = []
        for rule in rules {
            guard rule.event == .news, rule.enabled, let start = starts[rule.id] else { continue }
            for headline in unseen where headline.publishedAt >= start && headline.publishedAt.milliseconds >= oldest
                && rule.match.matches(headline.title) {
                picks.append(Pick(rule: rule, headline: headline))
            }
        }
        return picks
    }
}
