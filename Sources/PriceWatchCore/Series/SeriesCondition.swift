/// What makes a rule technical (`docs/rules.md`, "Technical rules"): the bars it is evaluated
/// on, the series it tests, and the series it compares with, when the level is not a number.
///
/// The rule's ``Condition`` keeps its key; its value is the level when ``level`` is nil, and
/// is not read when ``level`` names a series.
public struct SeriesCondition: Sendable, Hashable {
    public var timeframe: Timeframe
    /// The tested series (`of`, `price` by default).
    public var of: SeriesSpec
    /// The level as a series (`above = "sma(200)"`); nil when the level is a number.
    public var level: SeriesSpec?
    public var trigger: BarTrigger

    public init(timeframe: Timeframe, of: SeriesSpec = .price, level: SeriesSpec? = nil, trigger: BarTrigger = .close) {
        self.timeframe = timeframe
        self.of = of
        self.level = level
        self.trigger = trigger
    }

    /// The closed bars needed before the rule can be evaluated: the longest warm-up of the
    /// series it names.
    public var warmUpBars: Int { max(of.warmUpBars, level?.warmUpBars ?? 0) }

    /// The series named, tested one first.
    public var series: [SeriesSpec] { level.map { [of, $0] } ?? [of] }

    /// The part of the fingerprint: a change of any of it resets the rule's state.
    var fingerprint: String {
        "tf=\(timeframe);of=\(of)" + (level.map { ";level=\($0)" } ?? "") + (trigger == .tick ? ";trigger=tick" : "")
    }
}

/// When a technical rule is evaluated (`trigger`).
public enum BarTrigger: String, Sendable, Hashable, CaseIterable {
    /// Once per bar, when it closes (TradingView's "once per bar close"); the default.
    case close
    /// On every quote, against the forming bar (TradingView's "once per bar").
    case tick
}
