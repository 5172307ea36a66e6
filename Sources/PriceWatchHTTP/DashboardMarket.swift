import PriceWatchCore

/// One market of the trading calendars on the markets page: its code (MIC), name, time zone
/// and whether it is open, until when.
public struct DashboardMarket: Sendable {
    public var code: String
    public var name: String
    /// IANA time zone, e.g. `America/New_York`.
    public var timeZone: String
    public var status: MarketStatus

    public init(code: String, name: String, timeZone: String, status: MarketStatus) {
        self.code = code
        self.name = name
        self.timeZone = timeZone
        self.status = status
    }
}
