import PriceWatchCore

/// What the paper-trading pages show: the leaderboard (`/paper`), one account's statement and
/// daily equity (`/paper/NAME`), as `pricewatch paper leaderboard`, `show` and `history`
/// compute them, or why there is nothing.
public enum DashboardPaper: Sendable {
    case leaderboard(standings: [PaperReports.Standing], currency: String)
    /// The statement, and the daily equity when it could be built.
    case account(PaperReports.Statement, history: PaperReports.History?)
    /// No account has the name asked for.
    case unknownAccount(String)
    /// The state could not be read: for one line.
    case failed(String)
}
