/// `rsi(n)`: Pine's `ta.rsi`: Wilder's averages (`ta.rma`, seeded with the sma) of the
/// closes' rises and falls over n bars; 100 when nothing fell, 0 when nothing rose.
public struct RelativeStrengthIndex: Indicator {
    public init() {}
    public var name: String { "rsi" }
    public var parameters: [IndicatorParameter] { [.length()] }
    public var display: IndicatorDisplay { .oscillator(levels: [30, 70]) }
    public var summary: String { "100 - 100 / (1 + rma(rises, n) / rma(falls, n)), rma seeded with the sma (ta.rsi)" }
    /// The first change needs two closes: n changes need n + 1 bars.
    public func warmUpBars(_ arguments: [Double]) -> Int { Int(arguments[0]) + 1 }
    public func makeComputation(_ arguments: [Double]) -> any SeriesComputation {
        Computation(rises: .rma(Int(arguments[0])), falls: .rma(Int(arguments[0])))
    }

    struct Computation: SeriesComputation {
        var rises: RecursiveAverage
        var falls: RecursiveAverage
        var previous: Double?

        func value(ifNext x: Double) -> Double? {
            guard let previous else { return nil }
            guard let up = rises.value(ifNext: max(x - previous, 0)),
                  let down = falls.value(ifNext: max(previous - x, 0)) else { return nil }
            if down == 0 { return 100 }
            if up == 0 { return 0 }
            return 100 - 100 / (1 + up / down)
        }

        mutating func advance(_ x: Double) {
            if let previous {
                rises.advance(max(x - previous, 0))
                falls.advance(max(previous - x, 0))
            }
            previous = x
        }
    }
}
