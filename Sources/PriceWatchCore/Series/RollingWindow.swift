/// The last `capacity` inputs of a series in a ring buffer, with their compensated sum and sum
/// of squares: the building block of moving averages and bands, O(1) per bar.
///
/// Sums are kept with Neumaier's compensation, so a window sliding over years of bars drifts
/// no further from the straightforward sum than a few units in the last place.
struct RollingWindow: Sendable {
    let capacity: Int
    private var values: [Double] = []
    private var next = 0
    private(set) var sum = CompensatedSum()
    private(set) var sumOfSquares = CompensatedSum()

    init(capacity: Int) {
        self.capacity = capacity
        values.reserveCapacity(capacity)
    }

    /// Whether the window holds `capacity` values.
    var isFull: Bool { values.count == capacity }

    /// How many values it holds.
    var count: Int { values.count }

    /// The value that appending would push out (nil while not full).
    var oldest: Double? { isFull ? values[next] : nil }

    /// The value `age` bars back from the newest (0 is the newest); nil past what is held.
    func value(back age: Int) -> Double? {
        guard age < values.count else { return nil }
        let index = isFull ? (next - 1 - age + capacity) % capacity : values.count - 1 - age
        return values[index]
    }

    mutating func append(_ x: Double) {
        if isFull {
            let old = values[next]
            sum.add(-old)
            sumOfSquares.add(-old * old)
            values[next] = x
            next = (next + 1) % capacity
        } else {
            values.append(x)
        }
        sum.add(x)
        sumOfSquares.add(x * x)
    }
}

/// A running sum with Neumaier's compensation for the low-order bits lost to rounding.
struct CompensatedSum: Sendable {
    private var total = 0.0
    private var compensation = 0.0

    var value: Double { total + compensation }

    mutating func add(_ x: Double) {
        let t = total + x
        if abs(total) >= abs(x) {
            compensation += (total - t) + x
        } else {
            compensation += (x - t) + total
        }
        total = t
    }

    /// The sum with `x` added, without changing this one.
    func adding(_ x: Double) -> Double {
        var copy = self
        copy.add(x)
        return copy.value
    }
}
