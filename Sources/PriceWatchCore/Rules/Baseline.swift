/// Where a percent rule takes its base price from (`from` in `docs/rules.md`).
public enum Baseline: Sendable, Hashable, CustomStringConvertible {
    /// The quote's own previous close. A quote without one cannot be evaluated.
    case previousClose
    /// The latest earlier quote of the symbol at or before `quote time - duration`.
    case window(RuleDuration)
    /// The first quote of the symbol's current (or latest) regular session (`from = "open"`).
    case sessionOpen

    /// The `from` value as written in configuration.
    public var description: String {
        switch self {
        case .previousClose: "previous_close"
        case .window(let duration): duration.description
        case .sessionOpen: "open"
        }
    }
}
