/// One trading day of a market: its regular session from open to close in UTC instants, with
/// the lunch break when the market has one that day.
public struct TradingSession: Sendable, Hashable {
    /// The market's own date of the session (CME Globex's Monday session opens on Sunday).
    public var date: CivilDate
    public var open: Timestamp
    public var close: Timestamp
    /// The lunch break, when the session has one (none on a half day that closes before it).
    public var breakStart: Timestamp?
    public var breakEnd: Timestamp?

    public init(date: CivilDate, open: Timestamp, close: Timestamp, breakStart: Timestamp? = nil, breakEnd: Timestamp? = nil) {
        self.date = date
        self.open = open
        self.close = close
        self.breakStart = breakStart
        self.breakEnd = breakEnd
    }

    /// The open parts of the session: one interval, or two around a break.
    public var intervals: [(start: Timestamp, end: Timestamp)] {
        if let breakStart, let breakEnd { return [(open, breakStart), (breakEnd, close)] }
        return [(open, close)]
    }
}
