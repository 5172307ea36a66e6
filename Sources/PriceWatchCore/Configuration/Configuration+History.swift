extension Configuration {
    /// `history_retention` when not given: 90 days of candles.
    // A positive literal: this initialiser cannot fail.
    public static let defaultHistoryRetention = RuleDuration(seconds: 90 * 86_400)!
}
