/// `price`: the bar's close, its last quote's price. The series a rule tests by default.
public struct PriceIndicator: Indicator {
    public init() {}
    public var name: String { "price" }
    public var parameters: [IndicatorParameter] { [] }
    public var summary: String { "the bar's close (its last quote's price)" }
    public func warmUpBars(_ arguments: [Double]) -> Int { 1 }
    public func makeComputation(_ arguments: [Double]) -> any SeriesComputation { Identity() }

    struct Identity: SeriesComputation {
        func value(ifNext x: Double) -> Double? { x }
        mutating func advance(_ x: Double) {}
    }
}
