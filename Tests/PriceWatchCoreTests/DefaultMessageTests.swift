import PriceWatchCore
import Testing

/// The message of an alert whose rule has no `message` template.
@Suite struct DefaultMessageTests {
    static func alert(currency: String?, condition: Condition) throws -> Alert {
        let rule = Rule(id: "r", symbols: ["BTC-USD"], condition: condition)
        let quote = Quote(symbol: "BTC-USD", price: try ExactDecimal(parsing: "99999.5"), time: Timestamp(seconds: 0), currency: currency)
        let side: RuleState.Side? = condition.key == "crosses" ? .down : nil
        return Alert(rule: rule, quote: quote, provider: nil, trigger: .init(price: quote.price, side: side))
    }

    @Test func withACurrency() throws {
        let alert = try Self.alert(currency: "USD", condition: .above(try ExactDecimal(parsing: "90000")))
        #expect(alert.message == "BTC-USD 99999.50 USD: above 90000 (rule r)")
    }

    @Test func withoutACurrencyThereIsNoStraySpace() throws {
        let alert = try Self.alert(currency: nil, condition: .crosses(try ExactDecimal(parsing: "100000")))
        #expect(alert.message == "BTC-USD 99999.50: crosses 100000 (down) (rule r)")
    }
}
