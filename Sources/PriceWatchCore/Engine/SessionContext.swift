/// Where a quote's time lies in its market's regular session: what `session = "…"` and
/// `from = "open"` rules need, worked out by the caller from ``MarketHours`` (the engine reads
/// no calendar). `nil` in place of a context means the market is unknown: every quote counts as
/// in session and no session open is known.
public struct SessionContext: Sendable, Hashable {
    /// The open of the regular session the quote's time belongs to (a lunch break included);
    /// nil outside any session.
    public var sessionOpen: Timestamp?
    /// Whether the quote's time is inside the regular session's trading hours (not in a break).
    public var isTrading: Bool

    public init(sessionOpen: Timestamp?, isTrading: Bool) {
        self.sessionOpen = sessionOpen
        self.isTrading = isTrading
    }

    /// The context of `instant` for `market`: its status and the open of its session.
    public static func of(_ market: MarketIdentifier, at instant: Timestamp, in hours: any MarketHours) -> SessionContext {
        SessionContext(sessionOpen: hours.regularSessionOpen(of: market, at: instant),
                       isTrading: hours.status(of: market, at: instant).isOpen)
    }
}
