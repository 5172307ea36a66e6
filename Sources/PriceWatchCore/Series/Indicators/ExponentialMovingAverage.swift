/// `ema(n)`: Pine's `ta.ema`: alpha 2/(n+1), seeded with the sma of the first n closes.
public struct ExponentialMovingAverage: Indicator {
    public init() {}
    public var name: String { "ema" }
    public var parameters: [IndicatorParameter] { [.length()] }
    public var summary: String { "alpha 2/(n+1), seeded with the sma of the first n closes (ta.ema)" }
    public func warmUpBars(_ arguments: [Double]) -> Int { Int(arguments[0]) }
    public func makeComputation(_ arguments: [Double]) -> any SeriesComputation {
        Average(average: .ema(Int(arguments[0])))
    }

    struct Average: SeriesComputation {
        var average: RecursiveAverage
        func value(ifNext x: Double) -> Double? { average.value(ifNext: x) }
        mutating func advance(_ x: Double) { average.advance(x) }
    }
}
