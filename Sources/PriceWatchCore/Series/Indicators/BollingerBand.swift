/// `bb_upper(n,k)`, `bb_middle(n)` and `bb_lower(n,k)`: Pine's `ta.bb`: the sma of n closes,
/// plus or minus k population standard deviations of them (`ta.stdev`, biased).
public struct BollingerBand: Indicator {
    /// Which line of the bands the series is.
    public enum Line: String, Sendable {
        case upper = "bb_upper", middle = "bb_middle", lower = "bb_lower"
    }

    public let line: Line

    public init(_ line: Line) { self.line = line }

    public var name: String { line.rawValue }
    public var parameters: [IndicatorParameter] {
        line == .middle ? [.length()]
            : [.length(), IndicatorParameter(name: "multiplier", isWhole: false, range: 0.1...10)]
    }
    public var summary: String {
        switch line {
        case .upper: "sma(n) + k * stdev(n), the population standard deviation (ta.bb)"
        case .middle: "sma(n) (ta.bb's basis)"
        case .lower: "sma(n) - k * stdev(n) (ta.bb)"
        }
    }
    public func warmUpBars(_ arguments: [Double]) -> Int { Int(arguments[0]) }
    public func makeComputation(_ arguments: [Double]) -> any SeriesComputation {
        let sign: Double = switch line { case .upper: 1; case .middle: 0; case .lower: -1 }
        return Computation(window: RollingWindow(capacity: Int(arguments[0])),
                           offset: sign * (arguments.count > 1 ? arguments[1] : 0))
    }

    struct Computation: SeriesComputation {
        var window: RollingWindow
        /// `+k`, `0` or `-k`.
        let offset: Double

        func value(ifNext x: Double) -> Double? {
            let n = window.capacity
            let out = window.isFull ? (window.oldest ?? 0) : 0
            guard window.isFull || window.count + 1 == n else { return nil }
            let mean = window.sum.adding(x - out) / Double(n)
            guard offset != 0 else { return mean }
            let meanOfSquares = window.sumOfSquares.adding(x * x - out * out) / Double(n)
            // Rounding can leave a flat window's variance a hair below zero.
            return mean + offset * max(meanOfSquares - mean * mean, 0).squareRoot()
        }

        mutating func advance(_ x: Double) { window.append(x) }
    }
}
