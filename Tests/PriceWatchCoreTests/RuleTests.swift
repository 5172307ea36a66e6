import Testing
@testable import PriceWatchCore

@Suite("Rule and Condition")
struct RuleTests {
    static func template(_ text: String) -> MessageTemplate {
        guard let value = try? MessageTemplate(parsing: text) else { preconditionFailure("invalid template in a test table") }
        return value
    }

    static let priceRule = Rule(id: "aapl-200", symbols: ["AAPL"], provider: "yahoo", condition: .above(dec("200")))
    static let percentRule = Rule(id: "btc-move", symbols: ["BTC-USD"], condition: .move(dec("5")),
                                  baseline: .window(duration("1h")), rearm: dec("1"))

    // MARK: Fingerprint

    @Test("fingerprint names exactly the condition key, value, from and rearm", arguments: [
        (priceRule, "above=200;rearm=0"),
        (Rule(id: "x", symbols: ["X"], condition: .below(dec("99.50")), rearm: dec("1.5")), "below=99.5;rearm=1.5"),
        (Rule(id: "x", symbols: ["X"], condition: .fall(dec("3"))), "fall=3;from=previous_close;rearm=0"),
        (percentRule, "move=5;from=1h;rearm=1"),
        (Rule(id: "x", symbols: ["X"], condition: .rise(dec("2.5")), baseline: .window(duration("90m")), rearm: dec("0.5")),
         "rise=2.5;from=1h30m;rearm=0.5"),
        (Rule(id: "x", symbols: ["X"], condition: .crosses(dec("200"))), "crosses=200"),
    ])
    func fingerprintText(rule: Rule, text: String) {
        #expect(rule.fingerprint == text)
    }

    struct Edit: Sendable, CustomTestStringConvertible {
        var name: String
        var base: Rule
        var edit: @Sendable (inout Rule) -> Void
        var resetsState: Bool
        var testDescription: String { name }
    }

    static let edits: [Edit] = [
        // docs/rules.md: "reset to armed only when the rule's condition key, its value, `from` or `rearm` change".
        Edit(name: "condition key", base: priceRule, edit: { $0.condition = .below(dec("200")) }, resetsState: true),
        Edit(name: "condition value", base: priceRule, edit: { $0.condition = .above(dec("201")) }, resetsState: true),
        Edit(name: "condition value by one unit", base: priceRule, edit: { $0.condition = .above(dec("200.00000001")) }, resetsState: true),
        Edit(name: "percent key", base: percentRule, edit: { $0.condition = .rise(dec("5")) }, resetsState: true),
        Edit(name: "percent value", base: percentRule, edit: { $0.condition = .move(dec("6")) }, resetsState: true),
        Edit(name: "from window", base: percentRule, edit: { $0.baseline = .window(duration("2h")) }, resetsState: true),
        Edit(name: "from previous close", base: percentRule, edit: { $0.baseline = .previousClose }, resetsState: true),
        Edit(name: "rearm", base: priceRule, edit: { $0.rearm = dec("1") }, resetsState: true),
        Edit(name: "percent rearm", base: percentRule, edit: { $0.rearm = dec("2") }, resetsState: true),
        Edit(name: "to crosses", base: priceRule, edit: { $0.condition = .crosses(dec("200")) }, resetsState: true),
        // "editing notify, message, cooldown, expires or enabled keeps it".
        Edit(name: "notify", base: priceRule, edit: { $0.notify = ["mail", "hook"] }, resetsState: false),
        Edit(name: "message", base: priceRule, edit: { $0.message = template("{{symbol}} {{price}}") }, resetsState: false),
        Edit(name: "cooldown", base: priceRule, edit: { $0.cooldown = duration("30m") }, resetsState: false),
        Edit(name: "expires", base: priceRule, edit: { $0.expires = at(1_000) }, resetsState: false),
        Edit(name: "enabled", base: priceRule, edit: { $0.enabled = false }, resetsState: false),
        // Not listed either way; "only when" means the state is kept.
        Edit(name: "once", base: priceRule, edit: { $0.once = true }, resetsState: false),
        Edit(name: "symbols", base: priceRule, edit: { $0.symbols = ["AAPL", "MSFT"] }, resetsState: false),
        Edit(name: "provider", base: priceRule, edit: { $0.provider = "finnhub" }, resetsState: false),
        Edit(name: "id (state is keyed by id anyway)", base: priceRule, edit: { $0.id = "renamed" }, resetsState: false),
        // `from` is meaningless for price conditions.
        Edit(name: "from on a price rule", base: priceRule, edit: { $0.baseline = .window(duration("1h")) }, resetsState: false),
    ]

    @Test("fingerprint changes exactly for the edits that reset state", arguments: edits)
    func fingerprintEdits(_ row: Edit) {
        var edited = row.base
        row.edit(&edited)
        #expect(edited != row.base, "the edit must change the rule")
        #expect((edited.fingerprint != row.base.fingerprint) == row.resetsState)
    }

    // MARK: Condition text and window

    @Test("conditionText", arguments: [
        (priceRule, "above 200"),
        (Rule(id: "x", symbols: ["X"], condition: .below(dec("99.50"))), "below 99.5"),
        (Rule(id: "x", symbols: ["X"], condition: .crosses(dec("0.00001234"))), "crosses 0.00001234"),
        (Rule(id: "x", symbols: ["X"], condition: .fall(dec("3"))), "fall 3% from previous close"),
        (Rule(id: "x", symbols: ["X"], condition: .rise(dec("2.5")), baseline: .window(duration("15m"))), "rise 2.5% in 15m"),
        (percentRule, "move 5% in 1h"),
        (Rule(id: "x", symbols: ["X"], condition: .move(dec("10")), baseline: .window(duration("1d12h"))), "move 10% in 1d12h"),
        (Rule(id: "x", symbols: ["X"], condition: .above(dec("200")), baseline: .window(duration("1h"))), "above 200"),
    ])
    func conditionText(rule: Rule, text: String) {
        #expect(rule.conditionText == text)
    }

    @Test("window is the from duration of percent rules only", arguments: [
        (percentRule, RuleDuration?.some(duration("1h"))),
        (Rule(id: "x", symbols: ["X"], condition: .fall(dec("3"))), nil),
        (Rule(id: "x", symbols: ["X"], condition: .above(dec("200")), baseline: .window(duration("1h"))), nil),
        (Rule(id: "x", symbols: ["X"], condition: .crosses(dec("200")), baseline: .window(duration("1h"))), nil),
    ])
    func window(rule: Rule, window: RuleDuration?) {
        #expect(rule.window == window)
    }

    @Test("defaults of a rule")
    func defaults() {
        let rule = Rule(id: "r", symbols: ["X"], condition: .above(dec("1")))
        #expect(rule.provider == nil && rule.baseline == .previousClose && rule.rearm == .zero && rule.cooldown == nil)
        #expect(!rule.once && rule.expires == nil && rule.enabled && rule.notify.isEmpty && rule.message == nil)
    }

    /// `cooldown`, `expires`, `message`, `market` and `portfolio` live in a shared box: they
    /// still read back as set, compare and hash by value, and a copy's change leaves the
    /// original alone.
    @Test("a rule's optional keys read back, compare by value and are copied on change")
    func optionalKeys() {
        var rule = Rule(id: "r", symbols: ["X"], condition: .above(dec("1")), cooldown: duration("5m"),
                        message: Self.template("{symbol} up"))
        #expect(rule.cooldown == duration("5m") && rule.message == Self.template("{symbol} up") && rule.market == nil)
        let original = rule
        rule.market = MarketIdentifier(rawValue: "XNYS")
        rule.expires = Timestamp(milliseconds: 1_000)
        #expect(rule.market == MarketIdentifier(rawValue: "XNYS") && rule.expires == Timestamp(milliseconds: 1_000))
        #expect(original.market == nil && original.expires == nil && original.cooldown == duration("5m"))
        #expect(rule != original)

        // Cleared again, it equals (and hashes as) a rule that never had them.
        rule.market = nil
        rule.expires = nil
        rule.cooldown = nil
        rule.message = nil
        let plain = Rule(id: "r", symbols: ["X"], condition: .above(dec("1")))
        #expect(rule == plain)
        #expect(Set([rule, plain]).count == 1)
        // Setting a key to the value it has changes nothing.
        var same = original
        same.cooldown = duration("5m")
        #expect(same == original)
    }

    @Test("Condition keys, values and kinds", arguments: [
        (Condition.above(dec("1")), "above", false),
        (.below(dec("2")), "below", false),
        (.rise(dec("3")), "rise", true),
        (.fall(dec("4")), "fall", true),
        (.move(dec("5")), "move", true),
        (.crosses(dec("6")), "crosses", false),
    ])
    func conditions(condition: Condition, key: String, isPercent: Bool) {
        #expect(condition.key == key)
        #expect(condition.isPercent == isPercent)
        #expect(Condition(key: key, value: condition.value) == condition)
        #expect(Condition.keys.contains(key))
    }

    @Test("Condition keys in docs/rules.md order; unknown keys")
    func conditionKeys() {
        #expect(Condition.keys == ["above", "below", "rise", "fall", "move", "crosses"])
        #expect(Condition(key: "Above", value: dec("1")) == nil)
        #expect(Condition(key: "from", value: dec("1")) == nil)
        #expect(Condition(key: "", value: dec("1")) == nil)
        #expect(Condition.fall(dec("3.5")).value == dec("3.5"))
    }

    @Test("Baseline description is the from value as written", arguments: [
        (Baseline.previousClose, "previous_close"),
        (.window(duration("15m")), "15m"),
        (.window(duration("24h")), "1d"),
        (.window(duration("30d")), "30d"),
    ])
    func baselineDescription(baseline: Baseline, text: String) {
        #expect(baseline.description == text)
    }
}
