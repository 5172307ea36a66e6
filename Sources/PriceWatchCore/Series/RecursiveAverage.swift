/// An exponential average as Pine's `ta.ema` and `ta.rma` define it: undefined for the first
/// `length - 1` inputs, the simple average of the first `length` inputs, then
/// `alpha * x + (1 - alpha) * previous`.
///
/// `alpha` is `2 / (length + 1)` for `ema` and `1 / length` for Wilder's `rma` (RSI).
struct RecursiveAverage: Sendable {
    let length: Int
    let alpha: Double
    private var seedSum = CompensatedSum()
    private var seen = 0
    private(set) var current: Double?

    static func ema(_ length: Int) -> RecursiveAverage { RecursiveAverage(length: length, alpha: 2 / Double(length + 1)) }
    static func rma(_ length: Int) -> RecursiveAverage { RecursiveAverage(length: length, alpha: 1 / Double(length)) }

    private init(length: Int, alpha: Double) {
        self.length = length
        self.alpha = alpha
    }

    func value(ifNext x: Double) -> Double? {
        if let current { return alpha * x + (1 - alpha) * current }
        return seen + 1 == length ? seedSum.adding(x) / Double(length) : nil
    }

    mutating func advance(_ x: Double) {
        if let current {
            self.current = alpha * x + (1 - alpha) * current
            return
        }
        seedSum.add(x)
        seen += 1
        if seen == length { current = seedSum.value / Double(length) }
    }
}
