/// When in the day a company reports its earnings, when the source says (Finnhub's `hour`).
public enum EarningsTiming: String, Sendable, Hashable {
    /// `bmo`: before the market opens.
    case beforeOpen = "bmo"
    /// `amc`: after the market closes.
    case afterClose = "amc"
    /// `dmh`: during market hours.
    case duringSession = "dmh"

    /// `before the open`, `after the close`, `during the session`.
    public var text: String {
        switch self {
        case .beforeOpen: "before the open"
        case .afterClose: "after the close"
        case .duringSession: "during the session"
        }
    }
}
