/// The one condition of a rule (`docs/rules.md`, "Conditions").
///
/// Level conditions (`above`, `below`, `rise`, `fall`, `move`) fire once when satisfied and
/// re-arm when cleared; `crosses` fires on every change of side.
public enum Condition: Sendable, Hashable {
    case above(ExactDecimal)
    case below(ExactDecimal)
    case rise(ExactDecimal)
    case fall(ExactDecimal)
    case move(ExactDecimal)
    case crosses(ExactDecimal)

    /// The TOML key that names this condition.
    public var key: String {
        switch self {
        case .above: "above"
        case .below: "below"
        case .rise: "rise"
        case .fall: "fall"
        case .move: "move"
        case .crosses: "crosses"
        }
    }

    /// Every condition key, in the order of `docs/rules.md`.
    public static let keys = ["above", "below", "rise", "fall", "move", "crosses"]

    /// The threshold price or the percent.
    public var value: ExactDecimal {
        switch self {
        case .above(let v), .below(let v), .rise(let v), .fall(let v), .move(let v), .crosses(let v): v
        }
    }

    /// Builds a condition from its key; `nil` for an unknown key.
    public init?(key: String, value: ExactDecimal) {
        switch key {
        case "above": self = .above(value)
        case "below": self = .below(value)
        case "rise": self = .rise(value)
        case "fall": self = .fall(value)
        case "move": self = .move(value)
        case "crosses": self = .crosses(value)
        default: return nil
        }
    }

    /// Whether the value is a percent change (evaluated against a base) rather than a price.
    public var isPercent: Bool {
        switch self {
        case .rise, .fall, .move: true
        case .above, .below, .crosses: false
        }
    }
}
