import PriceWatchCore
import Testing

/// `session` and `from = "open"` in the engine, with the session context a caller works out
/// from the calendars (none is read here).
@Suite struct SessionRulesTests {
    static let open = Timestamp(seconds: 1_727_875_800) // 2024-10-02T13:30:00Z
    static let trading = SessionContext(sessionOpen: open, isTrading: true)
    static let closed = SessionContext(sessionOpen: nil, isTrading: false)

    static func engine(_ rules: [Rule]) -> AlertEngine { AlertEngine(book: RuleBook(rules: rules, provider: "p")) }

    static func quote(_ price: String, at seconds: Int64, state: String? = nil) -> Quote {
        Quote(symbol: "X", price: ExactDecimal(price)!, time: Timestamp(seconds: seconds), marketState: state)
    }

    static func fired(_ engine: inout AlertEngine, _ quote: Quote, _ session: SessionContext?) -> Bool {
        !engine.process(quote, source: 0, provider: nil, now: nil, session: session).alerts.isEmpty
    }

    @Test func aRegularRuleLooksOnlyAtQuotesInTheSession() {
        var engine = Self.engine([Rule(id: "r", symbols: ["X"], condition: .above(ExactDecimal("10")!), session: .regular)])
        #expect(!Self.fired(&engine, Self.quote("11", at: 1_727_870_000), Self.closed), "pre-market: not looked at")
        #expect(Self.fired(&engine, Self.quote("11", at: 1_727_876_000), Self.trading))
    }

    @Test func anExtendedRuleAlsoTakesQuotesMarkedPreOrPostMarket() {
        var marked = Self.engine([Rule(id: "r", symbols: ["X"], condition: .above(ExactDecimal("10")!), session: .extended)])
        #expect(Self.fired(&marked, Self.quote("11", at: 1_727_870_000, state: "PRE"), Self.closed))
        var unmarked = Self.engine([Rule(id: "r", symbols: ["X"], condition: .above(ExactDecimal("10")!), session: .extended)])
        #expect(!Self.fired(&unmarked, Self.quote("11", at: 1_727_870_000, state: "CLOSED"), Self.closed))
    }

    @Test func anUnknownMarketIsAlwaysInSession() {
        var engine = Self.engine([Rule(id: "r", symbols: ["X"], condition: .above(ExactDecimal("10")!), session: .regular)])
        #expect(Self.fired(&engine, Self.quote("11", at: 1_727_870_000), nil))
    }

    @Test func fromOpenMeasuresFromTheSessionsFirstQuote() {
        var engine = Self.engine([Rule(id: "r", symbols: ["X"], condition: .rise(ExactDecimal("2")!), baseline: .sessionOpen)])
        #expect(!Self.fired(&engine, Self.quote("90", at: 1_727_870_000), Self.closed), "before the open: no base")
        #expect(!Self.fired(&engine, Self.quote("100", at: 1_727_875_860), Self.trading), "the open itself")
        #expect(!Self.fired(&engine, Self.quote("101.99", at: 1_727_876_000), Self.trading))
        #expect(Self.fired(&engine, Self.quote("102", at: 1_727_876_100), Self.trading), "2% above the open of 100, not above 90")
    }

    @Test func joiningASessionUnderWayLeavesTheOpenUnknownUntilTheNext() {
        var engine = Self.engine([Rule(id: "r", symbols: ["X"], condition: .rise(ExactDecimal("2")!), baseline: .sessionOpen)])
        #expect(!Self.fired(&engine, Self.quote("100", at: 1_727_876_000), Self.trading), "the first quote seen is mid-session")
        #expect(!Self.fired(&engine, Self.quote("200", at: 1_727_876_100), Self.trading), "so no base: never measured from it")
        let nextOpen = Timestamp(seconds: 1_727_875_800 + 86_400)
        let next = SessionContext(sessionOpen: nextOpen, isTrading: true)
        #expect(!Self.fired(&engine, Self.quote("100", at: 1_727_875_860 + 86_400), next))
        #expect(Self.fired(&engine, Self.quote("103", at: 1_727_876_000 + 86_400), next))
    }
}
