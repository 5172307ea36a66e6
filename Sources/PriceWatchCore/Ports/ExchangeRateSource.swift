/// Converts between currencies: what portfolio valuation, paper-trading leaderboards and
/// digests ask.
///
/// The contract:
///
/// - ``rate(from:to:at:)`` answers the newest known rate at or before `at`, directly or
///   triangulated through a common currency; nil when none is known. It never invents a rate
///   and never reads a clock.
/// - Minor units (`GBp`, `ZAc`, `ILA`) are the caller's business: codes here are ISO 4217
///   major currencies.
/// - `rate(from: c, to: c, at:)` is 1.
public protocol ExchangeRateSource: Sendable {
    func rate(from base: String, to quote: String, at instant: Timestamp) async -> ExchangeRate?
}
