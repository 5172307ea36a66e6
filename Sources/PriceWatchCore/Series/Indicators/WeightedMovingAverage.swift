/// `wma(n)`: Pine's `ta.wma`: the last n closes weighted n (this bar) down to 1, divided by
/// n(n+1)/2.
public struct WeightedMovingAverage: Indicator {
    public init() {}
    public var name: String { "wma" }
    public var parameters: [IndicatorParameter] { [.length()] }
    public var summary: String { "the last n closes weighted n (this bar) down to 1, over n(n+1)/2 (ta.wma)" }
    public func warmUpBars(_ arguments: [Double]) -> Int { Int(arguments[0]) }
    public func makeComputation(_ arguments: [Double]) -> any SeriesComputation { Computation(length: Int(arguments[0])) }

    /// The weighted sum in O(1): while the window fills, the close that makes it `c` long
    /// weighs `c`; once it is full, appending x adds `n * x` and takes away the window's plain
    /// sum (every older close loses one weight, the oldest its last).
    struct Computation: SeriesComputation {
        var window: RollingWindow
        var weighted = CompensatedSum()
        let length: Int

        init(length: Int) {
            self.length = length
            window = RollingWindow(capacity: length)
        }

        private func step(_ x: Double) -> Double {
            window.isFull ? Double(length) * x - window.sum.value : Double(window.count + 1) * x
        }

        func value(ifNext x: Double) -> Double? {
            guard window.count + 1 >= length else { return nil }
            return weighted.adding(step(x)) / (Double(length) * Double(length + 1) / 2)
        }

        mutating func advance(_ x: Double) {
            weighted.add(step(x))
            window.append(x)
        }
    }
}
