/// A validated alert rule: one condition over one or more symbols (`docs/rules.md`, "Rules").
///
/// Rules are values produced by the configuration loader; every field already holds a checked
/// value, with defaults from the main file filled in.
public struct Rule: Sendable, Hashable {
    public var id: String
    public var symbols: [String]
    /// The provider whose quotes this rule evaluates (resolved from the main file's default).
    public var provider: String?
    public var condition: Condition
    /// Only meaningful for percent conditions.
    public var baseline: Baseline
    /// In price percent for `above`/`below`, percentage points for percent conditions.
    public var rearm: ExactDecimal
    /// Sink names (resolved from the main file's default).
    public var notify: [String]
    /// The keys most rules leave out, held apart (nil when all are unset) so that a rule stays
    /// small: a large configuration holds 100,000 of them, and these took half of each. (The
    /// one-byte fields come last, so that they share one word: 104 bytes a rule.)
    private var options: Options?
    public var once: Bool
    public var enabled: Bool
    /// `session`: which quotes the rule evaluates. Not part of the fingerprint.
    public var session: RuleSession
    /// `urgent`: its alerts go out during a sink's quiet hours too. Not part of the fingerprint.
    public var urgent: Bool = false

    public var cooldown: RuleDuration? {
        get { options?.values.cooldown }
        set { change { $0.cooldown = newValue } }
    }

    public var expires: Timestamp? {
        get { options?.values.expires }
        set { change { $0.expires = newValue } }
    }

    public var message: MessageTemplate? {
        get { options?.values.message }
        set { change { $0.message = newValue } }
    }

    /// `market`: the market the rule's symbols trade on, overriding what the calendars resolve
    /// from the symbol (market-aware polling asks its hours). Not part of the fingerprint.
    public var market: MarketIdentifier? {
        get { options?.values.market }
        set { change { $0.market = newValue } }
    }

    /// `timeframe`, `of`, a series level and `trigger`: the rule is evaluated on bars of a
    /// series (`docs/rules.md`, "Technical rules"); nil for a rule evaluated quote by quote.
    public var series: SeriesCondition? {
        get { options?.values.series }
        set { change { $0.series = newValue } }
    }

    /// `portfolio` (with `measure` and `position`): the rule watches a figure of a portfolio's
    /// valuation instead of a price; its one symbol is the target's ``PortfolioTarget/subject``.
    public var portfolio: PortfolioTarget? {
        get { options?.values.portfolio }
        set { change { $0.portfolio = newValue } }
    }

    public init(id: String, symbols: [String], provider: String? = nil, condition: Condition,
                baseline: Baseline = .previousClose, rearm: ExactDecimal = .zero, cooldown: RuleDuration? = nil,
                once: Bool = false, expires: Timestamp? = nil, enabled: Bool = true, notify: [String] = [],
                message: MessageTemplate? = nil, market: MarketIdentifier? = nil, session: RuleSession = .always) {
        self.id = id
        self.symbols = symbols
        self.provider = provider
        self.condition = condition
        self.baseline = baseline
        self.rearm = rearm
        self.once = once
        self.enabled = enabled
        self.notify = notify
        self.session = session
        self.options = Options.Values(cooldown: cooldown, expires: expires, message: message, market: market).boxed
    }

    /// Sets one optional key: the box is immutable (rules are shared across tasks), so a change
    /// makes a new one, or none when every optional key is unset.
    private mutating func change(_ body: (inout Options.Values) -> Void) {
        let old = options?.values ?? Options.Values()
        var values = old
        body(&values)
        // Setting a key to what it already is (the reader sets `portfolio` on every rule) keeps
        // the box, instead of making an equal one.
        guard values != old else { return }
        options = values.boxed
    }

    /// The rarely set keys of a rule, compared and hashed by value.
    private final class Options: Sendable, Hashable {
        struct Values: Hashable {
            var cooldown: RuleDuration?
            var expires: Timestamp?
            var message: MessageTemplate?
            var market: MarketIdentifier?
            var portfolio: PortfolioTarget?
            var series: SeriesCondition?

            /// The values in a box, or nil when none is set.
            var boxed: Options? { self == Values() ? nil : Options(self) }
        }

        let values: Values

        init(_ values: Values) { self.values = values }

        static func == (lhs: Options, rhs: Options) -> Bool { lhs.values == rhs.values }
        func hash(into hasher: inout Hasher) { hasher.combine(values) }
    }

    /// The parts of the rule whose change resets its state to armed: the condition key, its
    /// value, `from` and `rearm`. Editing anything else (`notify`, `message`, `cooldown`,
    /// `expires`, `enabled`) keeps the state.
    public var fingerprint: String {
        var text = "\(condition.key)=\(series?.level.map(\.description) ?? condition.value.description)"
        if let portfolio { text = "\(portfolio.measure.rawValue):" + text }
        if condition.isPercent { text += ";from=\(baseline)" }
        if condition.key != "crosses" { text += ";rearm=\(rearm)" }
        if let series { text += ";" + series.fingerprint }
        return text
    }

    /// The longest history this rule needs, if it compares against a window.
    public var window: RuleDuration? {
        guard condition.isPercent, case .window(let duration) = baseline else { return nil }
        return duration
    }

    /// The human-readable condition carried by alerts: `above 200`, `fall 3% from previous
    /// close`, `move 5% in 1h`, `crosses 200`.
    public var conditionText: String {
        if let series {
            let tested = series.of == .price ? "" : "\(series.of) "
            let level = series.level?.description ?? condition.value.description
            let percent = condition.isPercent ? "%" + baselineText : ""
            return "\(tested)\(condition.key) \(level)\(percent) on \(series.timeframe)"
                + (series.trigger == .tick ? " bars (every quote)" : " bars")
        }
        let value = condition.value.description
        if let portfolio { return "\(portfolio.label) \(condition.key) \(value)" }
        guard condition.isPercent else { return "\(condition.key) \(value)" }
        return "\(condition.key) \(value)%" + baselineText
    }

    /// The price the condition tests the symbol's price against (`above 200`: 200), drawn as
    /// a labelled level on the symbol's charts; nil for percent rules, portfolio rules and
    /// technical rules that test a series other than the price or against another series.
    public var priceLevel: ExactDecimal? {
        guard !condition.isPercent, portfolio == nil,
              series.map({ $0.of == .price && $0.level == nil }) ?? true else { return nil }
        return condition.value
    }

    /// ` from previous close`, ` in 1h`, ` from open`.
    private var baselineText: String {
        switch baseline {
        case .previousClose: " from previous close"
        case .window(let duration): " in \(duration)"
        case .sessionOpen: " from open"
        }
    }
}
