/// A poll whose outcome the store refused to write now (a full disk, an I/O error): it is kept
/// in memory and evaluated, in arrival order, when the store accepts writes again.
public struct PollKeptForLater: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the store refused (the store error's description).
    public var reason: String
    /// How many polls wait, this one included, and how many quotes they hold.
    public var polls: Int
    public var quotes: Int

    public init(reason: String, polls: Int, quotes: Int) {
        self.reason = reason
        self.polls = polls
        self.quotes = quotes
    }

    public var description: String {
        "\(reason); the poll is kept in memory, \(polls) poll(s) with \(quotes) quote(s) wait, "
            + "and is evaluated when the store accepts writes again"
    }
}
