/// A technical indicator: the one place that knows a series' definition (`docs/rules.md`,
/// "Series").
///
/// The contract:
///
/// - ``name`` is the word written in rules (`sma`, `rsi`); it is unique in
///   ``IndicatorCatalog``. ``parameters`` lists the arguments in order: the reader checks their
///   count, kind and range against it, then asks ``problem(with:)`` for checks between them.
/// - ``warmUpBars(_:)`` is the number of closed bars after which the series has its first
///   value: a rule is never evaluated on a bar where a series it names has none.
/// - ``makeComputation(_:)`` returns the incremental state of one series (one per symbol,
///   timeframe and series, shared by every rule that names it). Each update is O(1) in time,
///   and its memory is bounded by the longest window of its arguments.
/// - Arguments are validated before ``warmUpBars(_:)`` and ``makeComputation(_:)`` are called.
///
/// Adding an indicator is one new file that conforms, and one line in ``IndicatorCatalog``.
public protocol Indicator: Sendable {
    /// The name written in rules.
    var name: String { get }
    /// The arguments, in order.
    var parameters: [IndicatorParameter] { get }
    /// What the series reads of each bar.
    var input: BarInput { get }
    /// Where a chart draws the series.
    var display: IndicatorDisplay { get }
    /// A one-line definition for `docs/rules.md` and `pricewatch check`.
    var summary: String { get }
    /// A check between validated arguments (`macd`'s fast length below its slow one); nil
    /// when they are fine.
    func problem(with arguments: [Double]) -> String?
    /// The closed bars needed before the first value.
    func warmUpBars(_ arguments: [Double]) -> Int
    /// The incremental state of one series.
    func makeComputation(_ arguments: [Double]) -> any SeriesComputation
}

extension Indicator {
    public func problem(with arguments: [Double]) -> String? { nil }
    public var input: BarInput { .close }
    public var display: IndicatorDisplay { .overlay }
}

/// One argument of an indicator.
public struct IndicatorParameter: Sendable, Hashable {
    /// The argument's name in messages and docs: `length`, `fast`, `multiplier`.
    public var name: String
    /// Whether it must be a whole number (a count of bars).
    public var isWhole: Bool
    /// The values allowed.
    public var range: ClosedRange<Double>

    public init(name: String, isWhole: Bool, range: ClosedRange<Double>) {
        self.name = name
        self.isWhole = isWhole
        self.range = range
    }

    /// A number of bars, 1 to 5,000.
    public static func length(_ name: String = "length", minimum: Double = 1) -> IndicatorParameter {
        IndicatorParameter(name: name, isWhole: true, range: minimum...Double(IndicatorParameter.longestWindow))
    }

    /// The longest window any series may use, in bars: it bounds every series' memory and the
    /// history fetched to warm it up.
    public static let longestWindow = 5_000
}

/// What a series reads of each closed bar.
public enum BarInput: Sendable, Hashable {
    /// The bar's close (its last quote's price).
    case close
    /// The bar's traded volume (undefined where the source gives none).
    case volume
}

/// Where a chart draws a series.
public enum IndicatorDisplay: Sendable, Hashable {
    /// On the price chart, as a line (averages, bands, channels).
    case overlay
    /// In a panel under the price chart, with reference levels (RSI at 30 and 70).
    case oscillator(levels: [Double])
    /// In a panel under the price chart, as bars around zero (MACD's histogram).
    case histogram
}

/// The incremental state of one series over closed bars.
///
/// ``value(ifNext:)`` answers what the series would be if a bar with input `x` closed now,
/// without changing the state (`trigger = "tick"` evaluates the forming bar with it);
/// ``advance(_:)`` takes a closed bar. Both are O(1).
public protocol SeriesComputation: Sendable {
    /// The value at a bar with input `x` appended to the closed ones; nil while undefined.
    func value(ifNext x: Double) -> Double?
    /// Appends a closed bar's input.
    mutating func advance(_ x: Double)
    /// Appends a closed bar's input and returns the series' value at that bar: by default
    /// ``value(ifNext:)`` then ``advance(_:)``; a computation whose two would compute the same
    /// thing twice (MACD's averages) does both in one.
    mutating func append(_ x: Double) -> Double?
}

extension SeriesComputation {
    /// Appends a closed bar's input and returns the series' value at that bar.
    public mutating func append(_ x: Double) -> Double? {
        let value = value(ifNext: x)
        advance(x)
        return value
    }
}
