/// When a recorded price is too old to be used (`stale_after`), knowing when its market trades:
/// a price is stale only when its market has been in session for longer than `stale_after`
/// without a newer one. Friday's closing price is fresh all weekend; a London price is fresh
/// through New York's afternoon. A symbol on no known market trades around the clock, so its
/// price goes stale `stale_after` after its time.
///
/// Pure: the calendars and the instant are given.
public struct PriceFreshness: Sendable {
    public let staleAfterMilliseconds: Int64
    private let hours: any MarketHours

    public init(staleAfterMilliseconds: Int64, hours: any MarketHours) {
        self.staleAfterMilliseconds = staleAfterMilliseconds
        self.hours = hours
    }

    /// Whether a price of `symbol` (from an exchange the provider named, when known) given at
    /// `time` is stale at `now`.
    public func isStale(symbol: String, exchange: String? = nil, time: Timestamp, now: Timestamp) -> Bool {
        let limit = staleAfterMilliseconds
        guard now.milliseconds &- time.milliseconds > limit else { return false }
        guard let market = hours.market(ofSymbol: symbol, exchange: exchange) else { return true }
        // The first instant after `time` at which the market had traded `limit` without a newer
        // price: in the session under way at `time`, or else in the next one.
        let sessionStart: Timestamp
        switch hours.status(of: market, at: time) {
        case .open(let close):
            if close.milliseconds &- time.milliseconds > limit { return true }
            guard case .closed(let next) = hours.status(of: market, at: close), let next else { return false }
            sessionStart = next
        case .closed(let next):
            guard let next else { return false }
            sessionStart = next
        }
        return now.milliseconds &- sessionStart.milliseconds > limit
    }
}
