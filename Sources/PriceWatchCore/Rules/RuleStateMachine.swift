/// The firing rules of `docs/rules.md` for one rule and one symbol: a pure state machine that
/// takes one accepted quote at a time and returns what to do.
///
/// It reads no clock and performs no I/O. The caller resolves the base price a percent rule
/// compares against (the quote's previous close or a price from history) and passes it in;
/// the machine decides, updates its `state`, and returns an ``Action``. Persisting the state
/// and emitting the alert are the caller's job, in one transaction.
public struct RuleStateMachine: Sendable, Hashable {
    public private(set) var state: RuleState

    public init(state: RuleState = .initial) { self.state = state }

    /// What one quote did to the rule.
    public enum Action: Sendable, Hashable {
        /// Fire an alert with these details. The state has recorded it.
        case fire(Trigger)
        /// Satisfied (or crossed) but within `cooldown` of the last alert: nothing is sent.
        /// A level rule stays armed; a crossing is dropped.
        case suppressedByCooldown(Trigger)
        /// A fired level rule cleared and is armed again (no alert from this quote).
        case rearmed
        /// The first quote a `crosses` rule evaluates only records the side.
        case recordedSide(RuleState.Side)
        /// Evaluated; nothing changed.
        case none
        /// Not evaluated at all (step 1 of "Firing").
        case skipped(SkipReason)
    }

    /// Why a rule did not evaluate a quote.
    public enum SkipReason: Sendable, Hashable {
        case disabled
        case expired
        case alreadyFiredOnce
        case noPreviousClose
        case noWindowBase
    }

    /// What a firing carries besides the rule and the quote.
    public struct Trigger: Sendable, Hashable {
        public var price: ExactDecimal
        /// Percent rules: the base price and the change in percent (rounded for display).
        public var base: ExactDecimal?
        public var change: ExactDecimal?
        /// `crosses` only: the side the price moved to.
        public var side: RuleState.Side?

        public init(price: ExactDecimal, base: ExactDecimal? = nil, change: ExactDecimal? = nil, side: RuleState.Side? = nil) {
            self.price = price
            self.base = base
            self.change = change
            self.side = side
        }
    }

    /// Evaluates one accepted quote. `base` is the base price for a percent rule (nil when
    /// there is none yet); it is ignored for price conditions.
    public mutating func evaluate(rule: Rule, price: ExactDecimal, time: Timestamp, base: ExactDecimal?) -> Action {
        evaluate(RuleCheck(rule), price: price, time: time, base: base)
    }

    /// Evaluates one accepted quote against a rule's ``RuleCheck`` (the engine's per-quote
    /// path: no reference counting). The trigger (with its percent change) is built only for
    /// a firing or a suppressed firing.
    @inline(__always)
    public mutating func evaluate(_ rule: RuleCheck, price: ExactDecimal, time: Timestamp, base: ExactDecimal?) -> Action {
        if !rule.enabled { return .skipped(.disabled) }
        if let expires = rule.expiresAt, time.milliseconds >= expires { return .skipped(.expired) }
        if rule.once && state.alertCount > 0 { return .skipped(.alreadyFiredOnce) }
        let isPercent = rule.isPercent
        if isPercent, base == nil {
            return .skipped(rule.windowMilliseconds == nil ? .noPreviousClose : .noWindowBase)
        }
        var withinCooldown: Bool {
            guard let cooldown = rule.cooldownMilliseconds, let last = state.lastAlertAt else { return false }
            return time.milliseconds < last.milliseconds &+ cooldown
        }

        if rule.kind == .crosses {
            let side: RuleState.Side = price.scaled >= rule.value ? .up : .down
            let previous = state.side
            state.side = side
            guard let previous else { return .recordedSide(side) }
            guard previous != side else { return .none }
            let trigger = Trigger(price: price, side: side)
            if withinCooldown { return .suppressedByCooldown(trigger) }
            recordFiring(at: time)
            return .fire(trigger)
        }

        switch state.phase {
        case .armed:
            guard Self.isSatisfied(rule.kind, value: rule.value, price: price, base: base) else { return .none }
            let trigger = Self.makeTrigger(isPercent: isPercent, price: price, base: base)
            if withinCooldown { return .suppressedByCooldown(trigger) }
            recordFiring(at: time)
            state.phase = .fired
            return .fire(trigger)
        case .fired:
            guard Self.isCleared(rule.kind, value: rule.value, rearm: rule.rearm, price: price, base: base) else { return .none }
            state.phase = .armed
            return .rearmed
        }
    }

    private mutating func recordFiring(at time: Timestamp) {
        state.lastAlertAt = time
        state.alertCount += 1
    }

    private static func makeTrigger(isPercent: Bool, price: ExactDecimal, base: ExactDecimal?) -> Trigger {
        guard isPercent, let base else { return Trigger(price: price) }
        return Trigger(price: price, base: base, change: price.percentChange(from: base))
    }

    // MARK: - Exact comparisons

    /// `(price - base) * 100`, scaled by 10^16, exactly.
    @inline(__always)
    static func scaledChangeNumerator(price: ExactDecimal, base: ExactDecimal) -> Int128 {
        (Int128(price.scaled) - Int128(base.scaled)) * 100 * Int128(ExactDecimal.unit)
    }

    /// Whether the condition holds: the "satisfied when" column of `docs/rules.md`.
    public static func isSatisfied(_ condition: Condition, price: ExactDecimal, base: ExactDecimal?) -> Bool {
        isSatisfied(RuleCheck.Kind(condition), value: condition.value.scaled, price: price, base: base)
    }

    /// Whether a fired level rule has cleared: the "cleared when" column of `docs/rules.md`.
    public static func isCleared(_ condition: Condition, rearm: ExactDecimal, price: ExactDecimal, base: ExactDecimal?) -> Bool {
        isCleared(RuleCheck.Kind(condition), value: condition.value.scaled, rearm: rearm.scaled, price: price, base: base)
    }

    /// ``isSatisfied(_:price:base:)`` over a condition kind and its scaled value.
    @inline(__always)
    static func isSatisfied(_ kind: RuleCheck.Kind, value: Int64, price: ExactDecimal, base: ExactDecimal?) -> Bool {
        switch kind {
        case .above: return price.scaled >= value
        case .below: return price.scaled <= value
        case .crosses: return price.scaled >= value
        case .rise:
            guard let base else { return false }
            return scaledChangeNumerator(price: price, base: base) >= Int128(value) * Int128(base.scaled)
        case .fall:
            guard let base else { return false }
            return scaledChangeNumerator(price: price, base: base) <= -(Int128(value) * Int128(base.scaled))
        case .move:
            guard let base else { return false }
            return scaledChangeNumerator(price: price, base: base).magnitude >= (Int128(value) * Int128(base.scaled)).magnitude
        }
    }

    /// ``isCleared(_:rearm:price:base:)`` over a condition kind and its scaled value and rearm.
    @inline(__always)
    static func isCleared(_ kind: RuleCheck.Kind, value: Int64, rearm: Int64, price: ExactDecimal, base: ExactDecimal?) -> Bool {
        let hundred = Int128(ExactDecimal.hundred.scaled)
        switch kind {
        case .above:
            // price < level - |level| * r/100  <=>  price * 100 < level * 100 - |level| * r
            // (for a price level, which is positive: price < level * (1 - r/100); a portfolio
            // rule's level may be negative, and its band still lies below it)
            return Int128(price.scaled) * 100 * Int128(ExactDecimal.unit)
                < Int128(value) * hundred - Int128(value.magnitude) * Int128(rearm)
        case .below:
            // price > level + |level| * r/100  <=>  price * 100 > level * 100 + |level| * r
            return Int128(price.scaled) * 100 * Int128(ExactDecimal.unit)
                > Int128(value) * hundred + Int128(value.magnitude) * Int128(rearm)
        case .crosses:
            return false
        case .rise:
            guard let base else { return false }
            return scaledChangeNumerator(price: price, base: base) < (Int128(value) - Int128(rearm)) * Int128(base.scaled)
        case .fall:
            guard let base else { return false }
            return scaledChangeNumerator(price: price, base: base) > -(Int128(value) - Int128(rearm)) * Int128(base.scaled)
        case .move:
            guard let base else { return false }
            return scaledChangeNumerator(price: price, base: base).magnitude < ((Int128(value) - Int128(rearm)) * Int128(base.scaled)).magnitude
        }
    }
}

