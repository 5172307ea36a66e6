/// An operator's silence: alerts of one rule, or of one symbol, are recorded but not delivered
/// while it is active (Alertmanager-style, `docs/silences.md`).
///
/// A silence is active from `startsAt` (inclusive) to `endsAt` (exclusive). Expiring one sets
/// `endsAt` to the time of expiry, so the record stays for `silence list --all`.
public struct Silence: Sendable, Hashable, Codable {
    /// What a silence matches.
    public enum Target: Sendable, Hashable, Codable {
        /// Every alert of this rule id.
        case rule(String)
        /// Every alert of this symbol (any rule).
        case symbol(String)
    }

    /// Short, stable, unique: `s-` and 12 hexadecimal digits.
    public var id: String
    public var target: Target
    public var startsAt: Timestamp
    public var endsAt: Timestamp
    /// Why: free text from the operator (may be empty).
    public var comment: String
    /// When the silence was added (wall clock).
    public var createdAt: Timestamp

    public init(id: String, target: Target, startsAt: Timestamp, endsAt: Timestamp, comment: String = "",
                createdAt: Timestamp) {
        self.id = id
        self.target = target
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.comment = comment
        self.createdAt = createdAt
    }

    /// A new id: `s-` and 12 random hexadecimal digits.
    public static func newID() -> String {
        let hex = String(UInt64.random(in: 0..<(1 << 48)), radix: 16)
        return "s-" + String(repeating: "0", count: 12 - hex.count) + hex
    }

    /// Whether the silence is in force at `time`.
    public func isActive(at time: Timestamp) -> Bool {
        startsAt <= time && time < endsAt
    }

    /// Whether the silence covers `alert` (whatever the time).
    public func matches(_ alert: Alert) -> Bool {
        switch target {
        case .rule(let rule): alert.rule == rule
        case .symbol(let symbol): alert.symbol == symbol
        }
    }

    /// `rule x-crosses-15` or `symbol AAPL`.
    public var targetDescription: String {
        switch target {
        case .rule(let rule): "rule \(rule)"
        case .symbol(let symbol): "symbol \(symbol)"
        }
    }
}
