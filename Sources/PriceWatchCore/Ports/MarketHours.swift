/// Which market a symbol trades on, and whether that market is trading at an instant: what
/// market-aware polling, paper-trade fills, the watchlist, digests and the dashboard ask.
///
/// The contract:
///
/// - Answers are pure functions of their arguments and the loaded calendars: no clock is read
///   (the caller passes the instant), no I/O happens, and the same question gets the same answer.
/// - ``market(ofSymbol:exchange:)`` resolves a symbol from what its provider said (the quote's
///   exchange code, when known) and the symbol's own form (a suffix such as `.L`, `.DE`, `.T`;
///   `BTC-USD` is crypto, `EURUSD=X` a currency); nil when it cannot tell. A rule's explicit
///   `market = "XNYS"` is applied by the caller and wins over this.
/// - A symbol whose market is unknown is treated by callers as always open: knowing nothing
///   never stops polling, fills or alerts.
/// - ``status(of:at:)`` for a market it does not know answers `.open` forever (`until` the
///   largest timestamp), for the same reason.
public protocol MarketHours: Sendable {
    /// The market the symbol trades on, nil when unknown.
    func market(ofSymbol symbol: String, exchange: String?) -> MarketIdentifier?
    /// Whether the market's regular session is under way at `instant`, and until when.
    func status(of market: MarketIdentifier, at instant: Timestamp) -> MarketStatus
    /// The market's IANA time zone (`America/New_York`), nil when the market is unknown.
    func timeZone(of market: MarketIdentifier) -> String?
    /// The open of the regular session `instant` lies in (a lunch break included); nil outside
    /// any session or when unknown. A default answering nil is provided.
    func regularSessionOpen(of market: MarketIdentifier, at instant: Timestamp) -> Timestamp?
}

/// Markets that never close and symbols on no known market: what a daemon without calendars
/// (and every test that does not care about markets) uses.
public struct AlwaysOpenMarkets: MarketHours {
    public init() {}

    public func market(ofSymbol symbol: String, exchange: String?) -> MarketIdentifier? { nil }

    public func status(of market: MarketIdentifier, at instant: Timestamp) -> MarketStatus {
        .open(until: Timestamp(milliseconds: .max))
    }

    public func timeZone(of market: MarketIdentifier) -> String? { nil }
}
