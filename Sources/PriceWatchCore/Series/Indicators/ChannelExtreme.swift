/// `highest(n)` and `lowest(n)`: the highest or lowest close of the n bars **before** this
/// one (Pine's `ta.highest(close, n)[1]`), so that `above = "highest(252)"` is a breakout.
public struct ChannelExtreme: Indicator {
    public let keepsHighest: Bool

    public init(highest: Bool) { keepsHighest = highest }

    public var name: String { keepsHighest ? "highest" : "lowest" }
    public var parameters: [IndicatorParameter] { [.length()] }
    public var summary: String {
        "the \(keepsHighest ? "highest" : "lowest") close of the n bars before this one (ta.\(name)(close, n)[1])"
    }
    /// n earlier bars, and this one.
    public func warmUpBars(_ arguments: [Double]) -> Int { Int(arguments[0]) + 1 }
    public func makeComputation(_ arguments: [Double]) -> any SeriesComputation {
        Computation(window: MonotonicWindow(capacity: Int(arguments[0]), keepsHighest: keepsHighest))
    }

    struct Computation: SeriesComputation {
        var window: MonotonicWindow

        func value(ifNext x: Double) -> Double? { window.isFull ? window.extreme : nil }
        mutating func advance(_ x: Double) { window.append(x) }
    }
}
