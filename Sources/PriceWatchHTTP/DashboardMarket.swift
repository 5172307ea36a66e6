import PriceWatchCore

/// One market of the trading calendars on the markets page: its code (MIC), name, time zone
/// and whether it is open, until when, and the early close of its session under way or next.
public struct DashboardMarket: Sendable {
    public var code: String
    public var name: String
    /// IANA time zone, e.g. `America/New_York`.
    public var timeZone: String
    public var status: MarketStatus
    /// The close of the session under way, or of the next one, when that session closes
    /// before the regular close (``TradingCalendar/earlyClose(at:)``); nil otherwise.
    public var earlyClose: Timestamp?

    public init(code: String, name: String, timeZone: String, status: MarketStatus, earlyClose: Timestamp? = nil) {
        self.code = code
        self.name = name
        self.timeZone = timeZone
        self.status = status
        self.earlyClose = earlyClose
    }
}
