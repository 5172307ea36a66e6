/// `sma(n)`: the mean of the last n closes, the current one included (Pine's `ta.sma`).
public struct SimpleMovingAverage: Indicator {
    public init() {}
    public var name: String { "sma" }
    public var parameters: [IndicatorParameter] { [.length()] }
    public var summary: String { "the mean of the last n closes, this bar's included (ta.sma)" }
    public func warmUpBars(_ arguments: [Double]) -> Int { Int(arguments[0]) }
    public func makeComputation(_ arguments: [Double]) -> any SeriesComputation { Mean(length: Int(arguments[0])) }

    /// The mean of a rolling window; shared with `sma_volume` and `bb_middle`.
    struct Mean: SeriesComputation {
        var window: RollingWindow

        init(length: Int) { window = RollingWindow(capacity: length) }

        func value(ifNext x: Double) -> Double? {
            let n = window.capacity
            if window.isFull { return window.sum.adding(x - (window.oldest ?? 0)) / Double(n) }
            return window.count + 1 == n ? window.sum.adding(x) / Double(n) : nil
        }

        mutating func advance(_ x: Double) { window.append(x) }
    }
}
