/// The values a technical rule compared when it fired: carried by its alert (`of`, `level`
/// and their values in alert JSON; `sma(50) 171.20 crossed above sma(200) 170.95` in texts).
public struct SeriesReading: Sendable, Hashable, Codable {
    /// The bars' timeframe (`1d`).
    public var timeframe: String
    /// The tested series (`sma(50)`) and its value at the bar.
    public var of: String
    public var ofValue: ExactDecimal
    /// The level: a series (`sma(200)`) or the number written (`30`), and its value.
    public var level: String
    public var levelValue: ExactDecimal
    /// The condition's key (`crosses`, `above`, …): how the texts word it. Nil in alerts stored
    /// before it was kept.
    public var condition: String?

    public init(timeframe: String, of: String, ofValue: ExactDecimal, level: String, levelValue: ExactDecimal,
                condition: String? = nil) {
        self.timeframe = timeframe
        self.of = of
        self.ofValue = ofValue
        self.level = level
        self.levelValue = levelValue
        self.condition = condition
    }

    /// A series value as shown: two decimals, or four under one (an oscillator's MACD).
    public static func display(_ value: ExactDecimal) -> String {
        let digits = value.scaled.magnitude < UInt64(ExactDecimal.unit) ? 4 : 2
        return value.rounded(toFractionDigits: digits).formatted(minimumFractionDigits: digits)
    }

    /// `sma(50) 171.20 crossed above sma(200) 170.95`, `rsi(14) 28.41 below 30`; `verb` is the
    /// condition as it happened (`crossed above`, `above`).
    public func text(verb: String) -> String {
        let levelText = level == levelValue.description ? level : "\(level) \(Self.display(levelValue))"
        return "\(of) \(Self.display(ofValue)) \(verb) \(levelText)"
    }
}
