/// `roc(n)`: Pine's `ta.roc`: the percent change of the close over n bars,
/// `100 * (close - close[n]) / close[n]`.
public struct RateOfChange: Indicator {
    public init() {}
    public var name: String { "roc" }
    public var parameters: [IndicatorParameter] { [.length()] }
    public var display: IndicatorDisplay { .oscillator(levels: [0]) }
    public var summary: String { "100 * (close - close n bars ago) / close n bars ago (ta.roc)" }
    public func warmUpBars(_ arguments: [Double]) -> Int { Int(arguments[0]) + 1 }
    public func makeComputation(_ arguments: [Double]) -> any SeriesComputation {
        Computation(window: RollingWindow(capacity: Int(arguments[0])))
    }

    struct Computation: SeriesComputation {
        var window: RollingWindow

        func value(ifNext x: Double) -> Double? {
            guard let then = window.oldest, then != 0 else { return nil }
            return 100 * (x - then) / then
        }

        mutating func advance(_ x: Double) { window.append(x) }
    }
}
