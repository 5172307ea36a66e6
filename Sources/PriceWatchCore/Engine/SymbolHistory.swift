/// The recent accepted prices of one source, oldest first, kept compactly in memory.
///
/// The engine keeps only what its rules need: the newest quote (for repeat detection) and, for
/// window rules, enough history to find "the latest quote at or before `time - window`". The
/// full history lives in the store; this is the working set.
public struct SymbolHistory: Sendable, Hashable {
    private var times: [Int64] = []
    private var prices: [Int64] = []
    /// Index of the first live entry; the prefix before it is dropped in amortized batches.
    private var head = 0

    public init() {}

    /// The time of the newest accepted quote.
    public var latestTime: Timestamp? { times.last.map(Timestamp.init(milliseconds:)) }

    /// Number of live entries.
    public var count: Int { times.count - head }

    /// Entries kept in memory, the dead prefix included: what the symbol costs.
    public var storedCount: Int { times.count }

    /// The fewest dead entries worth a compaction.
    static let compactionFloor = 16

    /// Appends a quote newer than every stored one (the engine guarantees the order).
    public mutating func append(time: Timestamp, price: ExactDecimal) {
        times.append(time.milliseconds)
        prices.append(price.scaled)
    }

    /// The price of the latest entry whose time is at or before `time`.
    public func price(atOrBefore time: Timestamp) -> ExactDecimal? {
        // Binary search for the first entry after `time`.
        var low = head, high = times.count
        let target = time.milliseconds
        while low < high {
            let mid = (low + high) / 2
            if times[mid] <= target { low = mid + 1 } else { high = mid }
        }
        return low > head ? ExactDecimal(scaled: prices[low - 1]) : nil
    }

    /// Drops entries no window lookup can need any more: everything before the latest entry at
    /// or before `newest - window` (that entry is the anchor and stays). With no window, only
    /// the newest entry stays.
    public mutating func trim(window: RuleDuration?) {
        guard let newest = times.last else { return }
        let cutoff = window.map { newest - $0.seconds * 1000 } ?? newest
        var low = head, high = times.count
        while low < high {
            let mid = (low + high) / 2
            if times[mid] <= cutoff { low = mid + 1 } else { high = mid }
        }
        let anchor = max(low - 1, head)
        head = anchor
        // Compact when the dead prefix is at least half the storage: amortized O(1) per append.
        // A small floor, not a large one: a symbol of threshold rules keeps one live entry, and
        // with a floor of 1,024 each of 10,000 symbols carried up to 16 KB of dead entries
        // (the daemon grew by megabytes a poll; docs/benchmarks.md, "The daemon as run").
        if head >= Self.compactionFloor, head * 2 >= times.count {
            times.removeFirst(head)
            prices.removeFirst(head)
            head = 0
        }
    }
}
