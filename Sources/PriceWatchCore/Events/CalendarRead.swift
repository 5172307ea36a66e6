/// When a source's calendar of a symbol was last read, and last failed to be read: what
/// decides whether it is read again (``isDue(now:refreshAge:retryAfterFailure:)``).
public struct CalendarRead: Sendable, Hashable {
    public var symbol: String
    /// The source's ``CompanyCalendarSource/calendarName``.
    public var source: String
    /// The last read that succeeded.
    public var readAt: Timestamp?
    /// The last read that failed, when it was after the last success.
    public var failedAt: Timestamp?

    public init(symbol: String, source: String, readAt: Timestamp? = nil, failedAt: Timestamp? = nil) {
        self.symbol = symbol
        self.source = source
        self.readAt = readAt
        self.failedAt = failedAt
    }

    /// Whether to read now: never read, or read at least `refreshAge` ago; and not failed
    /// within `retryAfterFailure`.
    public func isDue(now: Timestamp, refreshAge: RuleDuration, retryAfterFailure: RuleDuration) -> Bool {
        let ago = { (time: Timestamp) in now.milliseconds - time.milliseconds }
        if let failedAt, ago(failedAt) < retryAfterFailure.seconds * 1000 { return false }
        guard let readAt else { return true }
        return ago(readAt) >= refreshAge.seconds * 1000
    }
}
