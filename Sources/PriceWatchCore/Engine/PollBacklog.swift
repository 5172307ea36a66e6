/// Polls whose outcome the store refused to write (a full disk, an I/O error), kept in memory in
/// arrival order until it accepts writes again, so a crossing that came and went during the
/// outage is still evaluated, with its quote times.
///
/// Bounded by the number of quotes held: appending past ``maximumQuotes`` drops the oldest
/// polls whole (never the one just appended) and reports what went. Pure: no I/O, no clock.
public struct PollBacklog: Sendable {
    /// One poll as it arrived: the provider's accepted answers, who served which symbol, and the
    /// wall-clock time of the poll (quote acceptance is decided against it when it is evaluated).
    public struct Poll: Sendable, Hashable {
        public var provider: String
        /// In time order, then by symbol (``PolledQuotes/quotes``): evaluated in this order.
        public var quotes: [Quote]
        public var servedBy: [String: String]
        public var receivedAt: Timestamp

        public init(provider: String, quotes: [Quote], servedBy: [String: String] = [:], receivedAt: Timestamp) {
            self.provider = provider
            self.quotes = quotes
            self.servedBy = servedBy
            self.receivedAt = receivedAt
        }
    }

    /// What an append pushed out of the backlog.
    public struct Dropped: Sendable, Hashable {
        public var polls = 0
        public var quotes = 0
        /// The quote times of the dropped quotes (nil when none had quotes).
        public var earliest: Timestamp?
        public var latest: Timestamp?

        public init() {}
    }

    /// The most quotes held (10,000 polls of 10 symbols; a few tens of megabytes at most).
    public static let defaultMaximumQuotes = 100_000

    public let maximumQuotes: Int
    private var polls: [Poll] = []
    private var head = 0
    public private(set) var quoteCount = 0

    public init(maximumQuotes: Int = PollBacklog.defaultMaximumQuotes) {
        self.maximumQuotes = max(maximumQuotes, 1)
    }

    public var isEmpty: Bool { head == polls.count }
    /// Polls in storage, the removed ones not yet compacted away included.
    var storedPolls: Int { polls.count }
    /// Quotes in storage, the removed polls' included: what the backlog costs.
    var storedQuotes: Int { polls.reduce(0) { $0 + $1.quotes.count } }
    public var count: Int { polls.count - head }
    /// The oldest poll.
    public var first: Poll? { isEmpty ? nil : polls[head] }

    /// Appends a poll; drops the oldest ones while more than ``maximumQuotes`` quotes are held,
    /// always keeping the new one.
    public mutating func append(_ poll: Poll) -> Dropped {
        polls.append(poll)
        quoteCount += poll.quotes.count
        var dropped = Dropped()
        while quoteCount > maximumQuotes, count > 1 {
            let oldest = polls[head]
            dropped.polls += 1
            dropped.quotes += oldest.quotes.count
            for quote in oldest.quotes {
                dropped.earliest = min(dropped.earliest ?? quote.time, quote.time)
                dropped.latest = max(dropped.latest ?? quote.time, quote.time)
            }
            removeFirst()
        }
        return dropped
    }

    /// Removes the oldest poll (after it was committed, or given up).
    public mutating func removeFirst() {
        guard !isEmpty else { return }
        quoteCount -= polls[head].quotes.count
        // The poll's quotes go now, not at the next compaction: the dead prefix held up to 64
        // whole polls, past ``maximumQuotes`` (at 10,000 symbols a poll the daemon grew by
        // megabytes a poll; docs/benchmarks.md, "The daemon as run").
        polls[head] = Poll(provider: "", quotes: [], receivedAt: polls[head].receivedAt)
        head += 1
        if head == polls.count {
            polls.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64, head * 2 >= polls.count {
            polls.removeFirst(head)
            head = 0
        }
    }
}
