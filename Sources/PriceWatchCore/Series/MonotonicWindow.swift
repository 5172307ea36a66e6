/// The highest (or lowest) of the last `capacity` inputs, with a monotonic deque: amortized
/// O(1) per bar, memory bounded by `capacity`.
struct MonotonicWindow: Sendable {
    let capacity: Int
    /// True for the highest value, false for the lowest.
    let keepsHighest: Bool
    /// (position, value), values strictly decreasing (highest) or increasing (lowest) from the
    /// front; the front is the extreme of the window.
    private var entries: [(position: Int, value: Double)] = []
    private var head = 0
    private var position = 0

    init(capacity: Int, keepsHighest: Bool) {
        self.capacity = capacity
        self.keepsHighest = keepsHighest
    }

    /// Whether `capacity` inputs have been seen.
    var isFull: Bool { position >= capacity }

    /// The extreme of the last `capacity` inputs (nil before any).
    var extreme: Double? { head < entries.count ? entries[head].value : nil }

    mutating func append(_ x: Double) {
        while entries.count > head, let last = entries.last,
              keepsHighest ? last.value <= x : last.value >= x {
            entries.removeLast()
        }
        entries.append((position, x))
        position += 1
        while head < entries.count, entries[head].position <= position - 1 - capacity { head += 1 }
        // Compact the dead prefix once it is most of the storage: amortized O(1).
        if head > 64, head * 2 >= entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }
}
