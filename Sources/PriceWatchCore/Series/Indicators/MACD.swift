/// `macd(fast,slow,signal)`, `macd_signal(…)` and `macd_hist(…)`: Pine's `ta.macd`: the
/// macd line `ema(fast) - ema(slow)`, its signal line `ema(macd, signal)`, and the histogram
/// `macd - signal`.
public struct MACD: Indicator {
    /// Which of the three lines the series is.
    public enum Line: String, Sendable {
        case macd = "macd", signal = "macd_signal", histogram = "macd_hist"
    }

    public let line: Line

    public init(_ line: Line) { self.line = line }

    public var name: String { line.rawValue }
    public var parameters: [IndicatorParameter] { [.length("fast"), .length("slow", minimum: 2), .length("signal")] }
    public var display: IndicatorDisplay { line == .histogram ? .histogram : .oscillator(levels: [0]) }
    public var summary: String {
        switch line {
        case .macd: "ema(fast) - ema(slow) (ta.macd's macd line)"
        case .signal: "ema(macd, signal) (ta.macd's signal line)"
        case .histogram: "macd - macd_signal (ta.macd's histogram)"
        }
    }

    public func problem(with arguments: [Double]) -> String? {
        arguments[0] < arguments[1] ? nil
            : "\(name)'s fast length must be shorter than its slow one, found \(Int(arguments[0])) and \(Int(arguments[1]))"
    }

    public func warmUpBars(_ arguments: [Double]) -> Int {
        line == .macd ? Int(arguments[1]) : Int(arguments[1]) + Int(arguments[2]) - 1
    }

    public func makeComputation(_ arguments: [Double]) -> any SeriesComputation {
        Computation(line: line, fast: .ema(Int(arguments[0])), slow: .ema(Int(arguments[1])), signal: .ema(Int(arguments[2])))
    }

    struct Computation: SeriesComputation {
        let line: Line
        var fast: RecursiveAverage
        var slow: RecursiveAverage
        var signal: RecursiveAverage

        /// The macd line and, once defined, the signal, if a bar with input `x` closed now.
        private func lines(ifNext x: Double) -> (macd: Double, signal: Double?)? {
            guard let f = fast.value(ifNext: x), let s = slow.value(ifNext: x) else { return nil }
            let macd = f - s
            return (macd, signal.value(ifNext: macd))
        }

        func value(ifNext x: Double) -> Double? {
            guard let lines = lines(ifNext: x) else { return nil }
            switch line {
            case .macd: return lines.macd
            case .signal: return lines.signal
            case .histogram: return lines.signal.map { lines.macd - $0 }
            }
        }

        mutating func advance(_ x: Double) {
            _ = append(x)
        }

        /// The averages once: the value at the bar, and the state moved past it.
        mutating func append(_ x: Double) -> Double? {
            let lines = lines(ifNext: x)
            fast.advance(x)
            slow.advance(x)
            guard let lines else { return nil }
            signal.advance(lines.macd)
            switch line {
            case .macd: return lines.macd
            case .signal: return lines.signal
            case .histogram: return lines.signal.map { lines.macd - $0 }
            }
        }
    }
}
