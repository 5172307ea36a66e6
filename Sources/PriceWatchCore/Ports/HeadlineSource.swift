/// A keyless feed of news headlines per symbol (Yahoo Finance's RSS headline feed).
///
/// Contract: ``headlines(for:)`` reads the feed once (no retries, no sleeping: the caller
/// schedules reads) and returns each story once, in the feed's order; an unknown symbol is an
/// empty list. Errors are ``ProviderError``s whose message names the feed and the symbol and
/// never contains a secret.
public protocol HeadlineSource: Sendable {
    /// The feed's name in messages and notifications (`yahoo`).
    var name: String { get }
    /// The headlines the feed lists for `symbol` now.
    func headlines(for symbol: String) async throws(ProviderError) -> [NewsHeadline]
}
