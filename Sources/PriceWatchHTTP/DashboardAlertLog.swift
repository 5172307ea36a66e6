import PriceWatchCore

/// A page of the alert log for `/alerts`: the alerts a query selected, newest first, and how
/// many matched in all (the page shows at most a limit of them).
public struct DashboardAlertLog: Sendable {
    public var lines: [DashboardSnapshot.AlertLine]
    /// Every alert the query matched, shown or not.
    public var matched: Int
    /// Why the log could not be read, for one line; nil when it was.
    public var readError: String?
    /// When it was read (wall clock): times of this year are shown without the year.
    public var now: Timestamp

    public init(lines: [DashboardSnapshot.AlertLine] = [], matched: Int = 0, readError: String? = nil,
                now: Timestamp = Timestamp(milliseconds: 0)) {
        self.lines = lines
        self.matched = matched
        self.readError = readError
        self.now = now
    }
}
