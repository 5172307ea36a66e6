/// Where a technical rule's series stand over the bars stored for one symbol: how many bars
/// there are against how many the rule needs, and each series' value at the newest bar (what
/// `pricewatch rules` shows: `warming up: 37 of 200 bars`, or `sma(50) 171.20, sma(200) 170.95`).
public struct SeriesSnapshot: Sendable, Hashable {
    /// Bars available (the newest may still be forming).
    public var bars: Int
    /// Bars the rule needs before it is evaluated.
    public var needed: Int
    /// Each series the rule names, with its value at the newest bar (nil: undefined).
    public var values: [(series: String, value: ExactDecimal?)]

    /// Whether the rule is still warming up.
    public var isWarmingUp: Bool { bars < needed }

    /// Runs the rule's series over `bars` (oldest first).
    public init(condition: SeriesCondition, bars history: [BarHistory.Bar]) {
        bars = history.count
        needed = condition.warmUpBars
        values = condition.series.map { spec in
            var computation = spec.indicator.makeComputation(spec.arguments)
            var last: Double?
            for bar in history {
                let input = spec.indicator.input == .close ? bar.close.doubleValue : bar.volume?.doubleValue
                last = input.flatMap { computation.append($0) }
            }
            return (spec.description, last.flatMap(ExactDecimal.init(fast:)))
        }
    }

    /// A series' value at every bar of `bars` (oldest first; nil where it is undefined), as
    /// charts draw it.
    public static func values(of spec: SeriesSpec, over bars: [BarHistory.Bar]) -> [ExactDecimal?] {
        var computation = spec.indicator.makeComputation(spec.arguments)
        return bars.map { bar in
            let input = spec.indicator.input == .close ? bar.close.doubleValue : bar.volume?.doubleValue
            return input.flatMap { computation.append($0) }.flatMap(ExactDecimal.init(fast:))
        }
    }

    /// `warming up: 37 of 200 bars`, or the values: `sma(50) 171.20, sma(200) 170.95`.
    public var text: String {
        if isWarmingUp { return "warming up: \(bars) of \(needed) bars" }
        return values.map { "\($0.series) \($0.value.map(SeriesReading.display) ?? "-")" }.joined(separator: ", ")
    }

    public static func == (lhs: SeriesSnapshot, rhs: SeriesSnapshot) -> Bool {
        lhs.bars == rhs.bars && lhs.needed == rhs.needed && lhs.values.map(\.series) == rhs.values.map(\.series)
            && lhs.values.map(\.value) == rhs.values.map(\.value)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(bars)
        hasher.combine(needed)
        for value in values {
            hasher.combine(value.series)
            hasher.combine(value.value)
        }
    }
}
