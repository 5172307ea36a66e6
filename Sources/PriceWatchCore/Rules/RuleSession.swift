/// Which quotes a rule evaluates (`session = "…"`): every quote, only those of the regular
/// session of the symbol's market, or those plus the pre- and post-market quotes a provider
/// marks as such.
public enum RuleSession: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Every quote, whenever it comes (the default).
    case always
    /// Only quotes whose time lies in the market's regular session (not in a lunch break).
    case regular
    /// Regular-session quotes and the ones the provider marks as pre- or post-market
    /// (`marketState` `PRE`, `PREPRE`, `POST`, `POSTPOST`); without such marks, as `regular`.
    case extended

    public var description: String { rawValue }
}
