@testable import PriceWatchCore
import Testing

/// The evaluator's backlog of polls the store has not committed yet: a poll committed is a
/// poll forgotten, and an outage's backlog is bounded by its quotes.
struct PollBacklogTests {
    static func poll(_ number: Int, symbols: Int) -> PollBacklog.Poll {
        let time = Timestamp(milliseconds: 1_727_875_800_000 + Int64(number) * 60_000)
        return PollBacklog.Poll(provider: "p", quotes: (0..<symbols).map {
            Quote(symbol: "S\($0)", price: ExactDecimal(scaled: 100 * ExactDecimal.unit), time: time)
        }, receivedAt: time)
    }

    @Test func aCommittedPollHoldsNoMemory() {
        var backlog = PollBacklog()
        for number in 0..<200 {
            _ = backlog.append(Self.poll(number, symbols: 1_000))
            #expect(backlog.first?.quotes.count == 1_000)
            backlog.removeFirst()
            #expect(backlog.isEmpty)
            #expect(backlog.storedQuotes == 0, "poll \(number): \(backlog.storedQuotes) quotes of committed polls still held")
        }
        #expect(backlog.storedPolls == 0)
    }

    @Test func anOutagesBacklogIsBoundedByItsQuotesAndDrainsInOrder() {
        var backlog = PollBacklog(maximumQuotes: 5_000)
        var dropped = 0
        for number in 0..<100 {
            dropped += backlog.append(Self.poll(number, symbols: 100)).polls
        }
        #expect(backlog.count == 50 && dropped == 50, "the newest 50 polls of 100 quotes kept")
        #expect(backlog.storedQuotes <= 5_000, "dropped polls hold nothing: \(backlog.storedQuotes)")
        var times: [Timestamp] = []
        while let first = backlog.first {
            times.append(first.receivedAt)
            backlog.removeFirst()
            #expect(backlog.storedQuotes == backlog.quoteCount, "only the polls still waiting hold quotes")
        }
        #expect(times == times.sorted() && times.count == 50)
    }
}
