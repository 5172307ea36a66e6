/// A poll whose outcome the store refused to write now (a full disk, an I/O error), or whose
/// evaluation was interrupted: it is kept in memory and evaluated, in arrival order, when the
/// store accepts writes again (with the next poll, after an interruption).
public struct PollKeptForLater: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the poll was kept: the store error's description, or the interruption.
    public var reason: String
    /// How many polls wait, this one included, and how many quotes they hold.
    public var polls: Int
    public var quotes: Int
    /// Whether the evaluation was interrupted (a reload paused polling, or the daemon is
    /// stopping) rather than refused by the store: nothing is wrong, and the poll is evaluated
    /// with the next one.
    public var interrupted: Bool

    public init(reason: String, polls: Int, quotes: Int, interrupted: Bool = false) {
        self.reason = reason
        self.polls = polls
        self.quotes = quotes
        self.interrupted = interrupted
    }

    public var description: String {
        "\(reason); the poll is kept in memory, \(polls) poll(s) with \(quotes) quote(s) wait, "
            + "and is evaluated \(interrupted ? "with the next poll" : "when the store accepts writes again")"
    }
}
