/// The persistent state of one rule for one symbol (`docs/rules.md`, "Firing").
///
/// A new state is armed. It is stored in SQLite with the rule's `fingerprint`; when the
/// fingerprint changes the state starts again from `RuleState.initial`.
public struct RuleState: Sendable, Hashable, Codable {
    /// Whether a level rule may fire.
    public enum Phase: String, Sendable, Hashable, Codable {
        /// The next quote that satisfies the condition fires.
        case armed
        /// The rule has fired and waits for the condition to clear.
        case fired
    }

    /// The side of a `crosses` threshold the price was on at the last evaluated quote.
    public enum Side: String, Sendable, Hashable, Codable {
        case up
        case down
    }

    public var phase: Phase
    /// Quote time of the last alert (for `cooldown`).
    public var lastAlertAt: Timestamp?
    /// How many alerts this state has fired (for `once`).
    public var alertCount: Int
    /// `crosses` only: the side at the last evaluated quote; nil before the first one.
    public var side: Side?

    public init(phase: Phase = .armed, lastAlertAt: Timestamp? = nil, alertCount: Int = 0, side: Side? = nil) {
        self.phase = phase
        self.lastAlertAt = lastAlertAt
        self.alertCount = alertCount
        self.side = side
    }

    /// The state of a rule that has seen nothing yet.
    public static let initial = RuleState()
}
