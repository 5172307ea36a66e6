import Testing
@testable import PriceWatchCore

@Suite("Quote acceptance")
struct QuoteAcceptanceTests {
    static let now: Int64 = 1_727_875_800_000
    static let fiveMinutes: Int64 = 5 * 60 * 1000

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var price: String
        var time: Int64
        var lastAccepted: Int64?
        var now: Int64?
        var expected: QuoteAcceptance
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "ordinary quote", price: "225.89", time: now, lastAccepted: nil, now: now, expected: .accepted),
        Case(name: "smallest positive price", price: "0.00000001", time: now, lastAccepted: nil, now: now, expected: .accepted),
        Case(name: "zero price", price: "0", time: now, lastAccepted: nil, now: now,
             expected: .rejected(reason: "price must be greater than zero, got 0")),
        Case(name: "negative price", price: "-1.5", time: now, lastAccepted: nil, now: now,
             expected: .rejected(reason: "price must be greater than zero, got -1.5")),
        Case(name: "zero price without now", price: "0", time: now, lastAccepted: nil, now: nil,
             expected: .rejected(reason: "price must be greater than zero, got 0")),
        Case(name: "zero price that is also a repeat is rejected", price: "0", time: now, lastAccepted: now, now: now,
             expected: .rejected(reason: "price must be greater than zero, got 0")),
        Case(name: "exactly 5 minutes in the future", price: "1", time: now + fiveMinutes, lastAccepted: nil, now: now,
             expected: .accepted),
        Case(name: "5 minutes and 1 ms in the future", price: "1", time: now + fiveMinutes + 1, lastAccepted: nil, now: now,
             expected: .rejected(reason: "quote time 2024-10-02T13:35:00.001Z is more than 5 minutes after the current time 2024-10-02T13:30:00Z")),
        Case(name: "1 ms in the future", price: "1", time: now + 1, lastAccepted: nil, now: now, expected: .accepted),
        Case(name: "a day old", price: "1", time: now - 86_400_000, lastAccepted: nil, now: now, expected: .accepted),
        Case(name: "future quote that is also a repeat is rejected", price: "1", time: now + fiveMinutes + 1,
             lastAccepted: now + 2 * fiveMinutes, now: now,
             expected: .rejected(reason: "quote time 2024-10-02T13:35:00.001Z is more than 5 minutes after the current time 2024-10-02T13:30:00Z")),
        Case(name: "backtest has no future check", price: "1", time: now + 365 * 86_400_000, lastAccepted: nil, now: nil,
             expected: .accepted),
        Case(name: "same time as the last accepted is a repeat", price: "1", time: now, lastAccepted: now, now: now,
             expected: .repeated),
        Case(name: "older than the last accepted is a repeat", price: "1", time: now - 1, lastAccepted: now, now: now,
             expected: .repeated),
        Case(name: "much older is a repeat", price: "1", time: now - 86_400_000, lastAccepted: now, now: now,
             expected: .repeated),
        Case(name: "1 ms after the last accepted", price: "1", time: now + 1, lastAccepted: now, now: now, expected: .accepted),
        Case(name: "repeat without now", price: "1", time: now, lastAccepted: now, now: nil, expected: .repeated),
        Case(name: "later without now", price: "1", time: now + 1, lastAccepted: now, now: nil, expected: .accepted),
    ]

    @Test(arguments: cases)
    func decide(_ row: Case) {
        let quote = Quote(symbol: "AAPL", price: dec(row.price), time: at(row.time))
        let decision = QuoteAcceptance.decide(quote, lastAccepted: row.lastAccepted.map(at), now: row.now.map(at))
        #expect(decision == row.expected)
    }

    @Test("the future tolerance is 5 minutes")
    func tolerance() {
        #expect(QuoteAcceptance.futureTolerance == 300_000)
    }

    @Test("a previous close that is not greater than zero is absent", arguments: [
        (String?.some("226.21"), String?.some("226.21")),
        ("0.00000001", "0.00000001"),
        ("0", nil),
        ("-1", nil),
        (nil, nil),
    ])
    func previousClose(given: String?, kept: String?) {
        var quote = Quote(symbol: "AAPL", price: dec("225.89"), time: at(0), previousClose: given.map(dec),
                          currency: "USD", exchange: "NMS", marketState: "REGULAR")
        #expect(quote.previousClose == kept.map(dec))
        #expect(quote.symbol == "AAPL" && quote.price == dec("225.89") && quote.time == at(0))
        #expect(quote.currency == "USD" && quote.exchange == "NMS" && quote.marketState == "REGULAR")
        quote.currency = nil
        #expect(quote.currency == nil)
    }
}
