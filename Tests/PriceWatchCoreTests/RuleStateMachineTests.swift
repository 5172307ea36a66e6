import Foundation
import Testing
@testable import PriceWatchCore

// MARK: - Helpers

private func fire(_ price: String) -> RuleStateMachine.Action { .fire(RuleStateMachine.Trigger(price: dec(price))) }
private func fire(_ price: String, base: String, change: String) -> RuleStateMachine.Action {
    .fire(RuleStateMachine.Trigger(price: dec(price), base: dec(base), change: dec(change)))
}
private func crossed(_ price: String, _ side: RuleState.Side) -> RuleStateMachine.Action { .fire(RuleStateMachine.Trigger(price: dec(price), side: side)) }
private func suppressed(_ price: String) -> RuleStateMachine.Action { .suppressedByCooldown(RuleStateMachine.Trigger(price: dec(price))) }
private func suppressedCrossing(_ price: String, _ side: RuleState.Side) -> RuleStateMachine.Action {
    .suppressedByCooldown(RuleStateMachine.Trigger(price: dec(price), side: side))
}

private func rule(_ condition: Condition, rearm: String = "0", from baseline: Baseline = .previousClose,
                  cooldown: String? = nil, once: Bool = false, expires: Int64? = nil, enabled: Bool = true) -> Rule {
    Rule(id: "r", symbols: ["X"], condition: condition, baseline: baseline, rearm: dec(rearm),
         cooldown: cooldown.map(duration), once: once, expires: expires.map(at), enabled: enabled)
}

// MARK: - Every single transition of "Firing"

/// One quote applied to one state: the transition tables of `docs/rules.md`, "Conditions" and "Firing".
/// Percent rules use a base of 100, so the change in percent is `price - 100`.
struct LevelTransition: Sendable, CustomTestStringConvertible {
    enum Outcome: Sendable {
        /// Fires; `change` is the displayed change for percent rules.
        case fire(change: String?)
        case none
        case rearmed
    }

    var condition: Condition
    var rearm: String
    var phase: RuleState.Phase
    var price: String
    var outcome: Outcome

    var testDescription: String {
        "\(condition.key) \(condition.value) rearm \(rearm), \(phase) at \(price) -> \(outcome)"
    }

    static func armed(_ condition: Condition, _ price: String, _ outcome: Outcome) -> Self {
        Self(condition: condition, rearm: "0", phase: .armed, price: price, outcome: outcome)
    }

    static func fired(_ condition: Condition, rearm: String = "0", _ price: String, _ outcome: Outcome) -> Self {
        Self(condition: condition, rearm: rearm, phase: .fired, price: price, outcome: outcome)
    }
}

private let levelTransitions: [LevelTransition] = {
    let above = Condition.above(dec("200")), below = Condition.below(dec("100"))
    let rise = Condition.rise(dec("5")), fall = Condition.fall(dec("5")), move = Condition.move(dec("5"))
    return [
        // above 200: satisfied when price >= 200.
        .armed(above, "200", .fire(change: nil)),
        .armed(above, "200.00000001", .fire(change: nil)),
        .armed(above, "250", .fire(change: nil)),
        .armed(above, "199.99999999", .none),
        .armed(above, "1", .none),
        // above 200, rearm 0: cleared when price < 200.
        .fired(above, "200", .none),
        .fired(above, "250", .none),
        .fired(above, "199.99999999", .rearmed),
        .fired(above, "100", .rearmed),
        // above 200, rearm 1.5: cleared when price < 200 * 0.985 = 197.
        .fired(above, rearm: "1.5", "197", .none),
        .fired(above, rearm: "1.5", "198", .none),
        .fired(above, rearm: "1.5", "199.99999999", .none),
        .fired(above, rearm: "1.5", "200", .none),
        .fired(above, rearm: "1.5", "196.99999999", .rearmed),
        .fired(above, rearm: "1.5", "150", .rearmed),

        // below 100: satisfied when price <= 100.
        .armed(below, "100", .fire(change: nil)),
        .armed(below, "99.99999999", .fire(change: nil)),
        .armed(below, "0.00000001", .fire(change: nil)),
        .armed(below, "100.00000001", .none),
        .armed(below, "500", .none),
        // below 100, rearm 0: cleared when price > 100.
        .fired(below, "100", .none),
        .fired(below, "50", .none),
        .fired(below, "100.00000001", .rearmed),
        // below 100, rearm 2: cleared when price > 102.
        .fired(below, rearm: "2", "102", .none),
        .fired(below, rearm: "2", "101", .none),
        .fired(below, rearm: "2", "100", .none),
        .fired(below, rearm: "2", "102.00000001", .rearmed),
        .fired(below, rearm: "2", "150", .rearmed),

        // rise 5 (base 100): satisfied when change >= 5.
        .armed(rise, "105", .fire(change: "5")),
        .armed(rise, "105.00000001", .fire(change: "5")),
        .armed(rise, "150", .fire(change: "50")),
        .armed(rise, "104.99999999", .none),
        .armed(rise, "100", .none),
        .armed(rise, "95", .none),
        .armed(rise, "50", .none),
        // rise 5, rearm 0: cleared when change < 5.
        .fired(rise, "105", .none),
        .fired(rise, "110", .none),
        .fired(rise, "104.99999999", .rearmed),
        .fired(rise, "90", .rearmed),
        // rise 5, rearm 1: cleared when change < 4.
        .fired(rise, rearm: "1", "104", .none),
        .fired(rise, rearm: "1", "104.5", .none),
        .fired(rise, rearm: "1", "105", .none),
        .fired(rise, rearm: "1", "103.99999999", .rearmed),
        .fired(rise, rearm: "1", "100", .rearmed),

        // fall 5 (base 100): satisfied when change <= -5.
        .armed(fall, "95", .fire(change: "-5")),
        .armed(fall, "94.99999999", .fire(change: "-5")),
        .armed(fall, "50", .fire(change: "-50")),
        .armed(fall, "95.00000001", .none),
        .armed(fall, "100", .none),
        .armed(fall, "105", .none),
        .armed(fall, "200", .none),
        // fall 5, rearm 0: cleared when change > -5.
        .fired(fall, "95", .none),
        .fired(fall, "90", .none),
        .fired(fall, "95.00000001", .rearmed),
        .fired(fall, "110", .rearmed),
        // fall 5, rearm 1: cleared when change > -4.
        .fired(fall, rearm: "1", "96", .none),
        .fired(fall, rearm: "1", "95.5", .none),
        .fired(fall, rearm: "1", "95", .none),
        .fired(fall, rearm: "1", "96.00000001", .rearmed),
        .fired(fall, rearm: "1", "100", .rearmed),

        // move 5 (base 100): satisfied when abs(change) >= 5.
        .armed(move, "105", .fire(change: "5")),
        .armed(move, "95", .fire(change: "-5")),
        .armed(move, "150", .fire(change: "50")),
        .armed(move, "50", .fire(change: "-50")),
        .armed(move, "104.99999999", .none),
        .armed(move, "95.00000001", .none),
        .armed(move, "100", .none),
        // move 5, rearm 0: cleared when abs(change) < 5.
        .fired(move, "105", .none),
        .fired(move, "95", .none),
        .fired(move, "120", .none),
        .fired(move, "80", .none),
        .fired(move, "104.99999999", .rearmed),
        .fired(move, "95.00000001", .rearmed),
        .fired(move, "100", .rearmed),
        // move 5, rearm 1: cleared when abs(change) < 4.
        .fired(move, rearm: "1", "104", .none),
        .fired(move, rearm: "1", "96", .none),
        .fired(move, rearm: "1", "104.5", .none),
        .fired(move, rearm: "1", "95.5", .none),
        .fired(move, rearm: "1", "103.99999999", .rearmed),
        .fired(move, rearm: "1", "96.00000001", .rearmed),
        .fired(move, rearm: "1", "100", .rearmed),
    ]
}()

@Suite("Rule state machine")
struct RuleStateMachineTests {
    @Test("level transitions", arguments: levelTransitions)
    func levelTransition(_ row: LevelTransition) {
        let base: ExactDecimal? = row.condition.isPercent ? dec("100") : nil
        let start = row.phase == .armed
            ? RuleState.initial
            : RuleState(phase: .fired, lastAlertAt: minutes(1), alertCount: 3)
        var machine = RuleStateMachine(state: start)
        let action = machine.evaluate(rule: rule(row.condition, rearm: row.rearm), price: dec(row.price),
                                      time: minutes(100), base: base)
        switch row.outcome {
        case .fire(let change):
            if let change {
                #expect(action == fire(row.price, base: "100", change: change))
            } else {
                #expect(action == fire(row.price))
            }
            #expect(machine.state == RuleState(phase: .fired, lastAlertAt: minutes(100), alertCount: start.alertCount + 1))
        case .none:
            #expect(action == .none)
            #expect(machine.state == start)
        case .rearmed:
            #expect(action == .rearmed)
            #expect(machine.state == RuleState(phase: .armed, lastAlertAt: start.lastAlertAt, alertCount: start.alertCount))
        }
    }

    /// The exact-arithmetic claims of `docs/rules.md` hold through the static predicates as well.
    @Test("the transition table agrees with isSatisfied and isCleared", arguments: levelTransitions)
    func predicates(_ row: LevelTransition) {
        let base: ExactDecimal? = row.condition.isPercent ? dec("100") : nil
        let satisfied = RuleStateMachine.isSatisfied(row.condition, price: dec(row.price), base: base)
        let cleared = RuleStateMachine.isCleared(row.condition, rearm: dec(row.rearm), price: dec(row.price), base: base)
        // A fired rule never clears at a satisfying price (the two sets are disjoint).
        #expect(!(satisfied && cleared))
        switch (row.phase, row.outcome) {
        case (.armed, .fire): #expect(satisfied)
        case (.armed, _): #expect(!satisfied)
        case (.fired, .rearmed): #expect(cleared)
        case (.fired, _): #expect(!cleared)
        }
    }

    @Test("percent predicates need a base; crosses never clears")
    func predicatesWithoutBase() {
        for condition in [Condition.rise(dec("5")), .fall(dec("5")), .move(dec("5"))] {
            #expect(!RuleStateMachine.isSatisfied(condition, price: dec("1000"), base: nil))
            #expect(!RuleStateMachine.isCleared(condition, rearm: .zero, price: dec("1000"), base: nil))
        }
        #expect(RuleStateMachine.isSatisfied(.crosses(dec("200")), price: dec("200"), base: nil))
        #expect(!RuleStateMachine.isSatisfied(.crosses(dec("200")), price: dec("199.99999999"), base: nil))
        #expect(!RuleStateMachine.isCleared(.crosses(dec("200")), rearm: .zero, price: dec("1"), base: nil))
    }

    @Test("extreme values compare without overflow")
    func extremes() {
        let max = ExactDecimal(scaled: Int64.max), tiny = ExactDecimal(scaled: 1)
        #expect(RuleStateMachine.isSatisfied(.rise(dec("1000000")), price: max, base: tiny))
        #expect(RuleStateMachine.isSatisfied(.fall(dec("99.99999999")), price: tiny, base: max))
        #expect(!RuleStateMachine.isSatisfied(.fall(dec("100")), price: tiny, base: max))
        #expect(RuleStateMachine.isSatisfied(.move(dec("92233720368")), price: max, base: tiny))
        #expect(RuleStateMachine.isCleared(.above(max), rearm: dec("99.99999999"), price: tiny, base: nil))
        #expect(RuleStateMachine.isCleared(.below(tiny), rearm: dec("99.99999999"), price: max, base: nil))
        #expect(!RuleStateMachine.isCleared(.below(max), rearm: dec("99.99999999"), price: max, base: nil))
    }

    // MARK: Exact percent arithmetic

    @Test("3.135 against a base of 3.3 is exactly -5%", arguments: [
        (Condition.fall(dec("5")), fire("3.135", base: "3.3", change: "-5")),
        (Condition.move(dec("5")), fire("3.135", base: "3.3", change: "-5")),
        (Condition.rise(dec("5")), RuleStateMachine.Action.none),
    ])
    func exactlyMinusFivePercent(condition: Condition, expected: RuleStateMachine.Action) {
        // In binary floating point the same change is not -5, so a Double implementation
        // would rely on luck here; the exact one must not.
        #expect((3.135 - 3.3) / 3.3 * 100 != -5.0)
        #expect((3.135 / 3.3 - 1) * 100 != -5.0)
        var machine = RuleStateMachine()
        #expect(machine.evaluate(rule: rule(condition), price: dec("3.135"), time: minutes(1), base: dec("3.3")) == expected)
        // One unit above 3.135 is no longer a 5% fall.
        var other = RuleStateMachine()
        #expect(other.evaluate(rule: rule(condition), price: dec("3.13500001"), time: minutes(1), base: dec("3.3")) == .none)
    }

    @Test("exact thresholds that Double arithmetic misses", arguments: [
        // (price - base) / base * 100 in Double is 4.999999999999999 and -4.999999999999999.
        (Condition.rise(dec("5")), 1.0605, "1.0605", fire("1.0605", base: "1.01", change: "5")),
        (Condition.fall(dec("5")), 0.9595, "0.9595", fire("0.9595", base: "1.01", change: "-5")),
        (Condition.move(dec("5")), 1.0605, "1.0605", fire("1.0605", base: "1.01", change: "5")),
        (Condition.move(dec("5")), 0.9595, "0.9595", fire("0.9595", base: "1.01", change: "-5")),
    ])
    func doubleWouldMiss(condition: Condition, double: Double, price: String, expected: RuleStateMachine.Action) {
        let doubleChange = (double - 1.01) / 1.01 * 100
        #expect(abs(doubleChange) < 5, "Double gives \(doubleChange); the case would not prove anything")
        var machine = RuleStateMachine()
        #expect(machine.evaluate(rule: rule(condition), price: dec(price), time: minutes(1), base: dec("1.01")) == expected)
    }

    @Test("the rearm boundary of a percent rule is exact")
    func exactRearmBoundary() {
        // fall 5 rearm 1 from 3.3: cleared when change > -4, i.e. price > 3.168 exactly.
        let fallRule = rule(.fall(dec("5")), rearm: "1")
        var machine = RuleStateMachine(state: RuleState(phase: .fired, lastAlertAt: minutes(0), alertCount: 1))
        #expect(machine.evaluate(rule: fallRule, price: dec("3.168"), time: minutes(1), base: dec("3.3")) == .none)
        #expect(machine.evaluate(rule: fallRule, price: dec("3.16800001"), time: minutes(2), base: dec("3.3")) == .rearmed)
        // rise 5 rearm 1 from 3.3: cleared when change < 4, i.e. price < 3.432 exactly.
        let riseRule = rule(.rise(dec("5")), rearm: "1")
        machine = RuleStateMachine(state: RuleState(phase: .fired, lastAlertAt: minutes(0), alertCount: 1))
        #expect(machine.evaluate(rule: riseRule, price: dec("3.432"), time: minutes(1), base: dec("3.3")) == .none)
        #expect(machine.evaluate(rule: riseRule, price: dec("3.43199999"), time: minutes(2), base: dec("3.3")) == .rearmed)
        // above 3.3 rearm 5: cleared when price < 3.135 exactly.
        let aboveRule = rule(.above(dec("3.3")), rearm: "5")
        machine = RuleStateMachine(state: RuleState(phase: .fired, lastAlertAt: minutes(0), alertCount: 1))
        #expect(machine.evaluate(rule: aboveRule, price: dec("3.135"), time: minutes(1), base: nil) == .none)
        #expect(machine.evaluate(rule: aboveRule, price: dec("3.13499999"), time: minutes(2), base: nil) == .rearmed)
        // below 3.135 rearm 5: cleared when price > 3.29175 exactly.
        let belowRule = rule(.below(dec("3.135")), rearm: "5")
        machine = RuleStateMachine(state: RuleState(phase: .fired, lastAlertAt: minutes(0), alertCount: 1))
        #expect(machine.evaluate(rule: belowRule, price: dec("3.29175"), time: minutes(1), base: nil) == .none)
        #expect(machine.evaluate(rule: belowRule, price: dec("3.29175001"), time: minutes(2), base: nil) == .rearmed)
    }

    @Test("percent triggers carry the base and the change rounded to 4 digits", arguments: [
        (Condition.rise(dec("3")), "3.1", "3", "3.3333"),
        (Condition.rise(dec("6")), "3.2", "3", "6.6667"),
        (Condition.fall(dec("6")), "2.8", "3", "-6.6667"),
        (Condition.move(dec("3")), "2.9", "3", "-3.3333"),
        (Condition.fall(dec("5")), "3.135", "3.3", "-5"),
    ])
    func percentTrigger(condition: Condition, price: String, base: String, change: String) {
        var machine = RuleStateMachine()
        #expect(machine.evaluate(rule: rule(condition), price: dec(price), time: minutes(1), base: dec(base))
            == fire(price, base: base, change: change))
    }

    @Test("price rules ignore a base", arguments: [Condition.above(dec("200")), .below(dec("300"))])
    func priceRulesIgnoreBase(condition: Condition) {
        var withBase = RuleStateMachine(), withoutBase = RuleStateMachine()
        #expect(withBase.evaluate(rule: rule(condition), price: dec("250"), time: minutes(1), base: dec("100")) == fire("250"))
        #expect(withoutBase.evaluate(rule: rule(condition), price: dec("250"), time: minutes(1), base: nil) == fire("250"))
    }

    // MARK: crosses

    struct CrossesTransition: Sendable, CustomTestStringConvertible {
        var previous: RuleState.Side?
        var price: String
        var action: RuleStateMachine.Action
        var side: RuleState.Side
        var testDescription: String { "crosses 200 from \(previous.map(\.rawValue) ?? "nothing") at \(price)" }
    }

    static let crossesTransitions: [CrossesTransition] = [
        CrossesTransition(previous: nil, price: "200", action: .recordedSide(.up), side: .up),
        CrossesTransition(previous: nil, price: "250", action: .recordedSide(.up), side: .up),
        CrossesTransition(previous: nil, price: "199.99999999", action: .recordedSide(.down), side: .down),
        CrossesTransition(previous: .up, price: "250", action: .none, side: .up),
        CrossesTransition(previous: .up, price: "200", action: .none, side: .up),
        CrossesTransition(previous: .up, price: "199.99999999", action: crossed("199.99999999", .down), side: .down),
        CrossesTransition(previous: .up, price: "1", action: crossed("1", .down), side: .down),
        CrossesTransition(previous: .down, price: "150", action: .none, side: .down),
        CrossesTransition(previous: .down, price: "199.99999999", action: .none, side: .down),
        CrossesTransition(previous: .down, price: "200", action: crossed("200", .up), side: .up),
        CrossesTransition(previous: .down, price: "200.00000001", action: crossed("200.00000001", .up), side: .up),
        CrossesTransition(previous: .down, price: "1000", action: crossed("1000", .up), side: .up),
    ]

    @Test("crosses transitions (rearm is irrelevant)", arguments: crossesTransitions, ["0", "5"])
    func crossesTransition(_ row: CrossesTransition, rearm: String) {
        let start = RuleState(phase: .armed, lastAlertAt: row.previous == nil ? nil : minutes(1),
                              alertCount: row.previous == nil ? 0 : 1, side: row.previous)
        var machine = RuleStateMachine(state: start)
        let action = machine.evaluate(rule: rule(.crosses(dec("200")), rearm: rearm), price: dec(row.price),
                                      time: minutes(100), base: nil)
        #expect(action == row.action)
        var expected = start
        expected.side = row.side
        if case .fire = row.action {
            expected.lastAlertAt = minutes(100)
            expected.alertCount += 1
        }
        #expect(machine.state == expected)
    }

    // MARK: Skips

    struct SkipCase: Sendable, CustomTestStringConvertible {
        var name: String
        var rule: Rule
        var state: RuleState
        var time: Int64
        var base: String?
        var reason: RuleStateMachine.SkipReason
        var testDescription: String { name }
    }

    static let skipCases: [SkipCase] = [
        SkipCase(name: "disabled level rule", rule: rule(.above(dec("200")), enabled: false), state: .initial,
                 time: 0, base: nil, reason: .disabled),
        SkipCase(name: "disabled crosses rule keeps its side", rule: rule(.crosses(dec("200")), enabled: false),
                 state: RuleState(side: .down), time: 0, base: nil, reason: .disabled),
        SkipCase(name: "disabled fired rule stays fired", rule: rule(.above(dec("200")), enabled: false),
                 state: RuleState(phase: .fired, lastAlertAt: at(0), alertCount: 1), time: 60_000, base: nil, reason: .disabled),
        SkipCase(name: "quote at expires", rule: rule(.above(dec("200")), expires: 600_000), state: .initial,
                 time: 600_000, base: nil, reason: .expired),
        SkipCase(name: "quote after expires", rule: rule(.above(dec("200")), expires: 600_000), state: .initial,
                 time: 600_001, base: nil, reason: .expired),
        SkipCase(name: "crosses at expires", rule: rule(.crosses(dec("200")), expires: 600_000),
                 state: RuleState(side: .down), time: 600_000, base: nil, reason: .expired),
        SkipCase(name: "once after one alert", rule: rule(.above(dec("200")), once: true),
                 state: RuleState(phase: .fired, lastAlertAt: at(0), alertCount: 1), time: 60_000, base: nil,
                 reason: .alreadyFiredOnce),
        SkipCase(name: "once after one alert, rearmed", rule: rule(.above(dec("200")), once: true),
                 state: RuleState(phase: .armed, lastAlertAt: at(0), alertCount: 1), time: 60_000, base: nil,
                 reason: .alreadyFiredOnce),
        SkipCase(name: "once crosses after one crossing", rule: rule(.crosses(dec("200")), once: true),
                 state: RuleState(lastAlertAt: at(0), alertCount: 1, side: .up), time: 60_000, base: nil,
                 reason: .alreadyFiredOnce),
        SkipCase(name: "rise without previous close", rule: rule(.rise(dec("5"))), state: .initial,
                 time: 0, base: nil, reason: .noPreviousClose),
        SkipCase(name: "fall without previous close", rule: rule(.fall(dec("5"))), state: .initial,
                 time: 0, base: nil, reason: .noPreviousClose),
        SkipCase(name: "move without previous close, fired", rule: rule(.move(dec("5"))),
                 state: RuleState(phase: .fired, lastAlertAt: at(0), alertCount: 1), time: 0, base: nil,
                 reason: .noPreviousClose),
        SkipCase(name: "rise without window base", rule: rule(.rise(dec("5")), from: .window(duration("15m"))),
                 state: .initial, time: 0, base: nil, reason: .noWindowBase),
        SkipCase(name: "move without window base", rule: rule(.move(dec("5")), from: .window(duration("1d"))),
                 state: .initial, time: 0, base: nil, reason: .noWindowBase),
        // When several reasons apply, the first of step 1 is reported.
        SkipCase(name: "disabled and expired", rule: rule(.above(dec("200")), expires: 0, enabled: false),
                 state: .initial, time: 0, base: nil, reason: .disabled),
        SkipCase(name: "expired and already fired once", rule: rule(.above(dec("200")), once: true, expires: 0),
                 state: RuleState(phase: .fired, lastAlertAt: at(0), alertCount: 1), time: 0, base: nil, reason: .expired),
        SkipCase(name: "already fired once and no base", rule: rule(.rise(dec("5")), once: true),
                 state: RuleState(phase: .fired, lastAlertAt: at(0), alertCount: 1), time: 0, base: nil,
                 reason: .alreadyFiredOnce),
    ]

    @Test("skipped quotes change nothing", arguments: skipCases)
    func skip(_ row: SkipCase) {
        var machine = RuleStateMachine(state: row.state)
        // A price that satisfies the level conditions and changes the side of `crosses`.
        let price = row.state.side == .up ? dec("1") : dec("1000")
        let action = machine.evaluate(rule: row.rule, price: price, time: at(row.time), base: row.base.map(dec))
        #expect(action == .skipped(row.reason))
        #expect(machine.state == row.state)
    }

    @Test("a quote 1 ms before expires is evaluated")
    func justBeforeExpires() {
        var machine = RuleStateMachine()
        let expiring = rule(.above(dec("200")), expires: 600_000)
        #expect(machine.evaluate(rule: expiring, price: dec("250"), time: at(599_999), base: nil) == fire("250"))
        #expect(machine.evaluate(rule: expiring, price: dec("150"), time: at(600_000), base: nil) == .skipped(.expired))
        #expect(machine.state.phase == .fired)
    }

    // MARK: Sequences

    struct Step: Sendable {
        var time: Int64
        var price: String
        var base: String?
        var action: RuleStateMachine.Action
        var phase: RuleState.Phase
        /// `crosses` only: the side after this quote.
        var side: RuleState.Side?

        init(_ time: Int64, _ price: String, base: String? = nil, _ action: RuleStateMachine.Action,
             _ phase: RuleState.Phase = .armed, side: RuleState.Side? = nil) {
            self.time = time
            self.price = price
            self.base = base
            self.action = action
            self.phase = phase
            self.side = side
        }
    }

    struct Scenario: Sendable, CustomTestStringConvertible {
        var name: String
        var rule: Rule
        var steps: [Step]
        var testDescription: String { name }
    }

    static let m: Int64 = 60_000

    static let scenarios: [Scenario] = [
        Scenario(name: "a jump over the threshold fires once", rule: rule(.above(dec("200"))), steps: [
            Step(0, "190", .none),
            Step(1 * m, "250", fire("250"), .fired),
            Step(2 * m, "260", .none, .fired),
            Step(3 * m, "300", .none, .fired),
            Step(4 * m, "200", .none, .fired),
        ]),
        Scenario(name: "the very first quote fires when it satisfies", rule: rule(.below(dec("100"))), steps: [
            Step(0, "90", fire("90"), .fired),
            Step(1 * m, "80", .none, .fired),
        ]),
        Scenario(name: "fire, clear past the rearm band, fire again", rule: rule(.above(dec("200")), rearm: "1.5"), steps: [
            Step(0, "201", fire("201"), .fired),
            Step(1 * m, "198", .none, .fired),
            Step(2 * m, "197", .none, .fired),
            Step(3 * m, "196.9", .rearmed, .armed),
            Step(4 * m, "199", .none, .armed),
            Step(5 * m, "196", .none, .armed),
            Step(6 * m, "200", fire("200"), .fired),
        ]),
        Scenario(name: "rearm 0 re-arms just below the threshold", rule: rule(.above(dec("200"))), steps: [
            Step(0, "200", fire("200"), .fired),
            Step(1 * m, "199.99999999", .rearmed, .armed),
            Step(2 * m, "200", fire("200"), .fired),
        ]),
        Scenario(name: "a percent rule follows its base", rule: rule(.rise(dec("5"))), steps: [
            Step(0, "105", base: "100", fire("105", base: "100", change: "5"), .fired),
            // Against a new base the same price is no longer a 5% rise: it clears.
            Step(1 * m, "105", base: "104", .rearmed, .armed),
            Step(2 * m, "105", base: "110", .none, .armed),
            Step(3 * m, "115.5", base: "110", fire("115.5", base: "110", change: "5"), .fired),
        ]),
        Scenario(name: "move fires on a rise, clears, then fires on a fall", rule: rule(.move(dec("5"))), steps: [
            Step(0, "106", base: "100", fire("106", base: "100", change: "6"), .fired),
            Step(1 * m, "94", base: "100", .none, .fired),
            Step(2 * m, "100", base: "100", .rearmed, .armed),
            Step(3 * m, "94", base: "100", fire("94", base: "100", change: "-6"), .fired),
        ]),
        Scenario(name: "within cooldown a satisfied rule stays armed", rule: rule(.above(dec("200")), cooldown: "10m"), steps: [
            Step(0, "250", fire("250"), .fired),
            Step(1 * m, "190", .rearmed, .armed),
            Step(2 * m, "250", suppressed("250"), .armed),
            Step(10 * m - 1, "250", suppressed("250"), .armed),
            // The next satisfying quote after the cooldown fires, with no clearing needed.
            Step(10 * m, "250", fire("250"), .fired),
            Step(11 * m, "250", .none, .fired),
        ]),
        Scenario(name: "cooldown: exactly at last alert + cooldown fires", rule: rule(.below(dec("100")), cooldown: "5m"), steps: [
            Step(0, "99", fire("99"), .fired),
            Step(1 * m, "101", .rearmed, .armed),
            Step(5 * m, "99", fire("99"), .fired),
        ]),
        Scenario(name: "cooldown does not delay re-arming", rule: rule(.above(dec("200")), cooldown: "1h"), steps: [
            Step(0, "250", fire("250"), .fired),
            Step(1 * m, "150", .rearmed, .armed),
            Step(2 * m, "150", .none, .armed),
        ]),
        Scenario(name: "cooldown is measured from the last alert, not the last suppression",
                 rule: rule(.above(dec("200")), cooldown: "10m"), steps: [
            Step(0, "250", fire("250"), .fired),
            Step(1 * m, "150", .rearmed, .armed),
            Step(9 * m, "250", suppressed("250"), .armed),
            Step(10 * m, "250", fire("250"), .fired),
        ]),
        Scenario(name: "once: nothing after the first alert, even after clearing", rule: rule(.above(dec("200")), once: true), steps: [
            Step(0, "150", .none),
            Step(1 * m, "250", fire("250"), .fired),
            Step(2 * m, "150", .skipped(.alreadyFiredOnce), .fired),
            Step(3 * m, "250", .skipped(.alreadyFiredOnce), .fired),
            Step(4 * m, "100", .skipped(.alreadyFiredOnce), .fired),
        ]),
        Scenario(name: "once with crosses", rule: rule(.crosses(dec("200")), once: true), steps: [
            Step(0, "150", .recordedSide(.down), side: .down),
            Step(1 * m, "250", crossed("250", .up), side: .up),
            Step(2 * m, "150", .skipped(.alreadyFiredOnce), side: .up),
            Step(3 * m, "250", .skipped(.alreadyFiredOnce), side: .up),
        ]),
        Scenario(name: "expires cuts off a fired rule", rule: rule(.above(dec("200")), expires: 10 * m), steps: [
            Step(0, "250", fire("250"), .fired),
            Step(10 * m - 1, "150", .rearmed, .armed),
            Step(10 * m, "250", .skipped(.expired), .armed),
            Step(20 * m, "250", .skipped(.expired), .armed),
        ]),
        Scenario(name: "a percent rule waits for a base", rule: rule(.fall(dec("2")), from: .window(duration("15m"))), steps: [
            Step(0, "100", .skipped(.noWindowBase)),
            Step(1 * m, "90", .skipped(.noWindowBase)),
            Step(15 * m, "97", base: "100", fire("97", base: "100", change: "-3"), .fired),
        ]),
        Scenario(name: "crosses fires on every change of side", rule: rule(.crosses(dec("200"))), steps: [
            Step(0, "190", .recordedSide(.down), side: .down),
            Step(1 * m, "195", .none, side: .down),
            Step(2 * m, "200", crossed("200", .up), side: .up),
            Step(3 * m, "210", .none, side: .up),
            Step(4 * m, "199", crossed("199", .down), side: .down),
            Step(5 * m, "150", .none, side: .down),
            Step(6 * m, "250", crossed("250", .up), side: .up),
        ]),
        Scenario(name: "crosses: the first quote only records the side, even far from X", rule: rule(.crosses(dec("200"))), steps: [
            Step(0, "1000", .recordedSide(.up), side: .up),
            Step(1 * m, "1", crossed("1", .down), side: .down),
        ]),
        Scenario(name: "crosses within cooldown: dropped, but the side still moves",
                 rule: rule(.crosses(dec("200")), cooldown: "10m"), steps: [
            Step(0, "190", .recordedSide(.down), side: .down),
            Step(1 * m, "210", crossed("210", .up), side: .up),
            Step(2 * m, "190", suppressedCrossing("190", .down), side: .down),
            // Still down: no crossing, even after the cooldown ended.
            Step(12 * m, "185", .none, side: .down),
            Step(13 * m, "210", crossed("210", .up), side: .up),
            Step(14 * m, "190", suppressedCrossing("190", .down), side: .down),
            Step(15 * m, "210", suppressedCrossing("210", .up), side: .up),
            Step(23 * m, "190", crossed("190", .down), side: .down),
        ]),
        Scenario(name: "crosses with rearm behaves as without", rule: rule(.crosses(dec("200")), rearm: "10"), steps: [
            Step(0, "250", .recordedSide(.up), side: .up),
            Step(1 * m, "199", crossed("199", .down), side: .down),
            Step(2 * m, "200", crossed("200", .up), side: .up),
        ]),
    ]

    @Test("sequences of quotes", arguments: scenarios)
    func scenario(_ scenario: Scenario) {
        var machine = RuleStateMachine()
        for (index, step) in scenario.steps.enumerated() {
            let action = machine.evaluate(rule: scenario.rule, price: dec(step.price), time: at(step.time),
                                          base: step.base.map(dec))
            #expect(action == step.action, "step \(index)")
            #expect(machine.state.phase == step.phase, "step \(index)")
            if scenario.rule.condition.key == "crosses" {
                #expect(machine.state.side == step.side, "step \(index)")
            }
        }
    }

    @Test("alert count and last alert time follow the alerts")
    func bookkeeping() {
        var machine = RuleStateMachine()
        let crossing = rule(.crosses(dec("200")), cooldown: "10m")
        _ = machine.evaluate(rule: crossing, price: dec("190"), time: minutes(0), base: nil)
        #expect(machine.state == RuleState(phase: .armed, lastAlertAt: nil, alertCount: 0, side: .down))
        _ = machine.evaluate(rule: crossing, price: dec("210"), time: minutes(1), base: nil)
        #expect(machine.state == RuleState(phase: .armed, lastAlertAt: minutes(1), alertCount: 1, side: .up))
        _ = machine.evaluate(rule: crossing, price: dec("190"), time: minutes(2), base: nil)
        #expect(machine.state == RuleState(phase: .armed, lastAlertAt: minutes(1), alertCount: 1, side: .down))
        _ = machine.evaluate(rule: crossing, price: dec("210"), time: minutes(11), base: nil)
        #expect(machine.state == RuleState(phase: .armed, lastAlertAt: minutes(11), alertCount: 2, side: .up))
    }

    @Test("a state restored from storage continues where it was")
    func restoredState() {
        var machine = RuleStateMachine(state: RuleState(phase: .fired, lastAlertAt: minutes(5), alertCount: 2))
        let above = rule(.above(dec("200")), cooldown: "30m")
        #expect(machine.evaluate(rule: above, price: dec("250"), time: minutes(6), base: nil) == .none)
        #expect(machine.evaluate(rule: above, price: dec("150"), time: minutes(7), base: nil) == .rearmed)
        #expect(machine.evaluate(rule: above, price: dec("250"), time: minutes(8), base: nil) == suppressed("250"))
        #expect(machine.evaluate(rule: above, price: dec("250"), time: minutes(35), base: nil) == fire("250"))
        #expect(machine.state == RuleState(phase: .fired, lastAlertAt: minutes(35), alertCount: 3))
    }

    @Test("RuleState is Codable and starts armed")
    func ruleStateCoding() throws {
        #expect(RuleState.initial == RuleState(phase: .armed, lastAlertAt: nil, alertCount: 0, side: nil))
        let state = RuleState(phase: .fired, lastAlertAt: at(1_500), alertCount: 2, side: .down)
        let data = try JSONEncoder().encode(state)
        #expect(try JSONDecoder().decode(RuleState.self, from: data) == state)
    }
}
