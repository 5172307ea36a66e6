/// The parts of a ``Rule`` that evaluation reads, as plain integers: no strings, no arrays, so
/// the per-quote loop copies it without reference counting.
///
/// Built once per rule (``RuleBook`` keeps one per slot); ``RuleStateMachine`` evaluates it
/// with exactly the semantics of the rule it came from.
public struct RuleCheck: Sendable, Hashable {
    /// The condition key.
    public enum Kind: UInt8, Sendable, Hashable {
        case above, below, rise, fall, move, crosses
    }

    public var kind: Kind
    /// The threshold price or the percent, scaled by 10^8.
    public var value: Int64
    /// `rearm`, scaled by 10^8.
    public var rearm: Int64
    /// Percent rules: the window in milliseconds; nil for the previous close.
    public var windowMilliseconds: Int64?
    /// `cooldown` in milliseconds; nil for none.
    public var cooldownMilliseconds: Int64?
    /// `expires` in milliseconds since the epoch; nil for never.
    public var expiresAt: Int64?
    public var once: Bool
    public var enabled: Bool
    /// Percent rules: the base is the session's open (`from = "open"`).
    public var fromOpen: Bool
    /// Which quotes the rule evaluates (`session`).
    public var session: RuleSession

    public init(_ rule: Rule) {
        kind = Kind(rule.condition)
        value = rule.condition.value.scaled
        rearm = rule.rearm.scaled
        switch rule.baseline {
        case .previousClose, .sessionOpen: windowMilliseconds = nil
        case .window(let duration): windowMilliseconds = duration.seconds &* 1000
        }
        cooldownMilliseconds = rule.cooldown.map { $0.seconds &* 1000 }
        expiresAt = rule.expires?.milliseconds
        once = rule.once
        enabled = rule.enabled
        fromOpen = rule.baseline == .sessionOpen
        session = rule.session
    }

    /// Whether the value is a percent change (evaluated against a base).
    @inline(__always)
    public var isPercent: Bool { kind == .rise || kind == .fall || kind == .move }
}

extension RuleCheck.Kind {
    /// The kind of a condition.
    public init(_ condition: Condition) {
        switch condition {
        case .above: self = .above
        case .below: self = .below
        case .rise: self = .rise
        case .fall: self = .fall
        case .move: self = .move
        case .crosses: self = .crosses
        }
    }
}
