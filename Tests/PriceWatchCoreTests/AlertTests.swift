import Foundation
import Testing
@testable import PriceWatchCore

@Suite("Alerts")
struct AlertTests {
    static let time = at(1_727_875_800_000) // 2024-10-02T13:30:00Z

    // MARK: AlertID

    struct IDInputs: Sendable, Hashable, CustomTestStringConvertible {
        var rule = "aapl-200"
        var fingerprint = "above=200;rearm=0"
        var symbol = "AAPL"
        var time: Int64 = 1_727_875_800_000
        var id: String { AlertID.make(rule: rule, fingerprint: fingerprint, symbol: symbol, time: at(time)) }
        var testDescription: String { "\(rule)|\(fingerprint)|\(symbol)|\(time)" }
    }

    static func isUUIDShaped(_ id: String) -> Bool {
        let groups = id.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12]
            && groups.allSatisfy { $0.allSatisfy { "0123456789abcdef".contains($0) } }
    }

    @Test("alert ids are stable FNV-1a 128 hashes, UUID-shaped", arguments: [
        (IDInputs(), "aa175366-4871-b8d1-485f-ce0185f1a5ac"),
        (IDInputs(rule: "", fingerprint: "", symbol: "", time: 0), "c232d8ac-6683-d94f-707f-ee46d2e53861"),
    ])
    func knownIDs(inputs: IDInputs, id: String) {
        // Pinned: receivers deduplicate on this id across restarts and upgrades.
        #expect(inputs.id == id)
        #expect(inputs.id == inputs.id)
        #expect(Self.isUUIDShaped(inputs.id))
    }

    static let variants: [IDInputs] = [
        IDInputs(rule: "aapl-201"),
        IDInputs(rule: "AAPL-200"),
        IDInputs(fingerprint: "above=201;rearm=0"),
        IDInputs(fingerprint: "above=200;rearm=1"),
        IDInputs(symbol: "MSFT"),
        IDInputs(symbol: "aapl"),
        IDInputs(time: 1_727_875_800_001),
        IDInputs(time: 1_727_875_799_999),
        IDInputs(time: -1_727_875_800_000),
        // The parts are delimited: moving text between them changes the id.
        IDInputs(rule: "aapl-200above=200;rearm=0", fingerprint: ""),
        IDInputs(rule: "aapl-20", fingerprint: "0above=200;rearm=0"),
        IDInputs(symbol: "AAPL1", time: 727_875_800_000),
    ]

    @Test("any change of input changes the id", arguments: variants)
    func differentInputs(_ variant: IDInputs) {
        #expect(variant.id != IDInputs().id)
        #expect(Self.isUUIDShaped(variant.id))
    }

    @Test("ids of many firings are distinct and UUID-shaped")
    func manyIDs() {
        var ids = Set<String>()
        for symbol in ["AAPL", "MSFT", "BTC-USD"] {
            for minute in 0..<500 {
                let id = IDInputs(symbol: symbol, time: Int64(minute) * 60_000).id
                #expect(Self.isUUIDShaped(id))
                ids.insert(id)
            }
        }
        #expect(ids.count == 1_500)
    }

    // MARK: Alert construction and the default message

    static func trigger(_ price: String, base: String? = nil, change: String? = nil,
                        side: RuleState.Side? = nil) -> RuleStateMachine.Trigger {
        RuleStateMachine.Trigger(price: dec(price), base: base.map(dec), change: change.map(dec), side: side)
    }

    @Test("an alert carries what docs/rules.md lists")
    func priceAlert() {
        let rule = Rule(id: "aapl-200", symbols: ["AAPL"], condition: .above(dec("200")))
        let quote = Quote(symbol: "AAPL", price: dec("200.5"), time: Self.time, previousClose: dec("199"), currency: "USD")
        let alert = Alert(rule: rule, quote: quote, provider: "yahoo", trigger: Self.trigger("200.5"))
        #expect(alert == Alert(
            id: "aa175366-4871-b8d1-485f-ce0185f1a5ac", rule: "aapl-200", symbol: "AAPL", provider: "yahoo",
            condition: "above 200", price: dec("200.5"), currency: "USD", time: Self.time, base: nil, change: nil,
            direction: nil, message: "AAPL 200.50 USD: above 200 (rule aapl-200)"))
    }

    @Test("percent alerts carry the base and the change")
    func percentAlert() {
        let rule = Rule(id: "sap-fall", symbols: ["SAP.DE"], condition: .fall(dec("5")))
        let quote = Quote(symbol: "SAP.DE", price: dec("3.135"), time: Self.time, previousClose: dec("3.3"), currency: "EUR")
        let alert = Alert(rule: rule, quote: quote, provider: nil,
                          trigger: Self.trigger("3.135", base: "3.3", change: "-5"))
        #expect(alert.id == AlertID.make(rule: "sap-fall", fingerprint: "fall=5;from=previous_close;rearm=0",
                                         symbol: "SAP.DE", time: Self.time))
        #expect(alert.provider == nil)
        #expect(alert.base == dec("3.3") && alert.change == dec("-5") && alert.direction == nil)
        #expect(alert.message == "SAP.DE 3.135 EUR: fall 5% from previous close (rule sap-fall)")
    }

    @Test("crosses alerts carry the direction")
    func crossesAlert() {
        let rule = Rule(id: "btc-100k", symbols: ["BTC-USD"], condition: .crosses(dec("100000")))
        let quote = Quote(symbol: "BTC-USD", price: dec("99999.5"), time: Self.time)
        let alert = Alert(rule: rule, quote: quote, provider: "coinbase", trigger: Self.trigger("99999.5", side: .down))
        #expect(alert.direction == "down")
        #expect(alert.currency == nil)
        #expect(alert.placeholderValue(.condition) == "crosses 100000 (down)")
        // Without a currency the default message leaves it out entirely.
        #expect(alert.message == "BTC-USD 99999.50: crosses 100000 (down) (rule btc-100k)")
    }

    @Test("a custom template replaces the default message")
    func customMessage() throws {
        let rule = Rule(id: "aapl-200", symbols: ["AAPL"], condition: .above(dec("200")),
                        message: try MessageTemplate(parsing: "{{symbol}} hit {{price}} at {{time}}"))
        let quote = Quote(symbol: "AAPL", price: dec("201"), time: Self.time)
        let alert = Alert(rule: rule, quote: quote, provider: nil, trigger: Self.trigger("201"))
        #expect(alert.message == "AAPL hit 201.00 at 2024-10-02T13:30:00Z")
    }

    static let fallAlert = Alert(
        id: "id", rule: "sap-fall", symbol: "SAP.DE", provider: "yahoo", condition: "fall 5% from previous close",
        price: dec("3.135"), currency: "EUR", time: at(1_727_875_800_250), base: dec("3.3"), change: dec("-5"),
        direction: nil, message: "")
    static let risingAlert = Alert(
        id: "id", rule: "r", symbol: "X", provider: nil, condition: "rise 3% in 1h",
        price: dec("200"), currency: nil, time: at(0), base: dec("193.5"), change: dec("3.3592"),
        direction: nil, message: "")
    static let flatAlert = Alert(
        id: "id", rule: "r", symbol: "X", provider: nil, condition: "move 0% in 1h",
        price: dec("0.00001234"), currency: nil, time: at(0), base: dec("0.00001234"), change: .zero,
        direction: "up", message: "")

    @Test("every placeholder's value", arguments: [
        (fallAlert, MessageTemplate.Placeholder.rule, String?.some("sap-fall")),
        (fallAlert, .symbol, "SAP.DE"),
        (fallAlert, .price, "3.135"),
        (fallAlert, .currency, "EUR"),
        (fallAlert, .condition, "fall 5% from previous close"),
        (fallAlert, .time, "2024-10-02T13:30:00.250Z"),
        (fallAlert, .base, "3.30"),
        (fallAlert, .change, "-5.00%"),
        (risingAlert, .price, "200.00"),
        (risingAlert, .currency, nil),
        (risingAlert, .base, "193.50"),
        (risingAlert, .change, "+3.3592%"),
        (risingAlert, .time, "1970-01-01T00:00:00Z"),
        (flatAlert, .price, "0.00001234"),
        (flatAlert, .change, "0.00%"),
        (flatAlert, .condition, "move 0% in 1h (up)"),
        (Alert(id: "id", rule: "r", symbol: "X", provider: nil, condition: "above 1", price: dec("1"), currency: nil,
               time: at(0), base: nil, change: nil, direction: nil, message: ""), .base, nil),
        (Alert(id: "id", rule: "r", symbol: "X", provider: nil, condition: "above 1", price: dec("1"), currency: nil,
               time: at(0), base: nil, change: nil, direction: nil, message: ""), .change, nil),
    ])
    func placeholderValues(alert: Alert, placeholder: MessageTemplate.Placeholder, value: String?) {
        #expect(alert.placeholderValue(placeholder) == value)
    }

    // MARK: MessageTemplate

    @Test("templates render every placeholder", arguments: [
        ("{{rule}}|{{symbol}}|{{price}}|{{currency}}|{{condition}}|{{time}}|{{base}}|{{change}}",
         "sap-fall|SAP.DE|3.135|EUR|fall 5% from previous close|2024-10-02T13:30:00.250Z|3.30|-5.00%"),
        ("{{ symbol }} {{  price}}", "SAP.DE 3.135"),
        ("{{symbol}}{{price}}", "SAP.DE3.135"),
        ("no placeholders", "no placeholders"),
        ("", ""),
        ("{{symbol}}", "SAP.DE"),
        ("price {{price}}!", "price 3.135!"),
        ("}} {symbol} {{symbol}}}", "}} {symbol} SAP.DE}"),
        ("{{symbol}} {{symbol}}", "SAP.DE SAP.DE"),
    ])
    func render(source: String, rendered: String) throws {
        let template = try MessageTemplate(parsing: source)
        #expect(template.source == source)
        #expect(template.render(Self.fallAlert.placeholderValue) == rendered)
    }

    @Test("placeholders without a value render empty")
    func missingValues() throws {
        let template = try MessageTemplate(parsing: "[{{currency}}][{{base}}][{{change}}]")
        #expect(template.render(Self.risingAlert.placeholderValue) == "[][193.50][+3.3592%]")
        #expect(template.render { _ in nil } == "[][][]")
    }

    static let known = "(known: {{rule}} {{symbol}} {{price}} {{currency}} {{condition}} {{time}} {{base}} {{change}} {{local_time}})"

    @Test("unknown placeholders are errors, with a suggestion when one is close", arguments: [
        ("{{symbl}}", "unknown placeholder '{{symbl}}'; did you mean '{{symbol}}'? \(known)"),
        ("at {{prcie}} now", "unknown placeholder '{{prcie}}'; did you mean '{{price}}'? \(known)"),
        ("{{Price}}", "unknown placeholder '{{Price}}'; did you mean '{{price}}'? \(known)"),
        ("{{ chnage }}", "unknown placeholder '{{chnage}}'; did you mean '{{change}}'? \(known)"),
        ("{{volume}}", "unknown placeholder '{{volume}}' \(known)"),
        ("{{}}", "unknown placeholder '{{}}' \(known)"),
        ("{{symbol}} {{market}}", "unknown placeholder '{{market}}' \(known)"),
        ("{{{symbol}}}", "unknown placeholder '{{{symbol}}'; did you mean '{{symbol}}'? \(known)"),
    ])
    func unknownPlaceholder(source: String, message: String) {
        #expect(throws: MessageTemplate.ParseError(description: message)) { try MessageTemplate(parsing: source) }
    }

    @Test("an unclosed {{ is an error", arguments: ["{{symbol", "{{", "{{symbol}} {{price", "price {{price}"])
    func unclosed(source: String) {
        let message = "expected '}}' to close the placeholder opened by '{{' in \"\(source)\""
        #expect(throws: MessageTemplate.ParseError(description: message)) { try MessageTemplate(parsing: source) }
    }

    @Test("placeholders are the ones of docs/rules.md (and docs/history.md: local_time)")
    func placeholderList() {
        #expect(MessageTemplate.Placeholder.allCases.map(\.rawValue)
            == ["rule", "symbol", "price", "currency", "condition", "time", "base", "change", "local_time"])
    }

    @Test("alerts are Codable")
    func codable() throws {
        let data = try JSONEncoder().encode(Self.fallAlert)
        #expect(try JSONDecoder().decode(Alert.self, from: data) == Self.fallAlert)
    }
}
