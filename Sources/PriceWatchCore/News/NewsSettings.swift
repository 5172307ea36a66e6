/// The main file's `[news]` table (`docs/events.md`, "News"): where the headline feed is read
/// and how often.
public struct NewsSettings: Sendable, Hashable {
    /// How often each watched symbol's feed is read: `interval`, default 15 minutes, never
    /// shorter than ``minimumInterval``.
    public var interval: RuleDuration
    /// `base_url`: the feed's address instead of Yahoo's (a mirror, a test server); nil: Yahoo's.
    public var baseURL: String?

    /// `interval` when not written.
    // Positive literals: these initialisers cannot fail.
    public static let defaultInterval = RuleDuration(seconds: 15 * 60)!
    /// The shortest `interval`: Yahoo documents no limit for its feeds, and one read a minute
    /// per symbol is what feed readers use.
    public static let minimumInterval = RuleDuration(seconds: 60)!
    /// A headline published longer ago than this is never sent, whatever else holds: a feed
    /// that brings back an old story, or a rule enabled again, sends no old news.
    public static let maximumAge = RuleDuration(seconds: 3 * 86_400)!

    public init(interval: RuleDuration = NewsSettings.defaultInterval, baseURL: String? = nil) {
        self.interval = interval
        self.baseURL = baseURL
    }
}
