import PriceWatchCore

import FoundationEssentials

/// Where one rule stands for one of its symbols, as `pricewatch rules` shows it: the rule's
/// state, the last price the daemon stored for the symbol and the rule's last alert.
///
/// Built from the configuration's rule, the stored state and what the store holds, at a wall
/// time `now` passed in: no I/O, no clock.
public struct RuleStatus: Sendable, Hashable {
    /// The state a rule-and-symbol pair is in, in the order it is decided.
    public enum State: Sendable, Hashable {
        /// `enabled = false`.
        case disabled
        /// Past its `expires` time.
        case expired
        /// Fired and waiting for the condition to clear (or a `once` rule that has fired).
        case fired
        /// Armed, but a new alert would be held back by `cooldown` until then.
        case coolingDown(until: Timestamp)
        /// The next quote that satisfies the condition fires.
        case armed

        /// `armed`, `fired`, `cooling down`, `expired`, `disabled`: the `state` of the JSON form.
        public var name: String {
            switch self {
            case .disabled: "disabled"
            case .expired: "expired"
            case .fired: "fired"
            case .coolingDown: "cooling down"
            case .armed: "armed"
            }
        }

        /// The text column: `cooling down until 2024-10-02T15:31:00Z` for a cooldown.
        public var text: String { text(zone: nil) }

        /// The text column with the cooldown's end in `zone` (nil: RFC 3339 in UTC).
        public func text(zone: TimeZone?) -> String {
            if case .coolingDown(let until) = self { return "cooling down until \(LocalTimeText.stamp(until, zone: zone))" }
            return name
        }
    }

    public var rule: String
    public var symbol: String
    public var provider: String?
    /// The rule's condition in words (`above 200`, `fall 3% from previous close`).
    public var condition: String
    public var state: State
    /// The newest stored price of the symbol from the rule's provider.
    public var lastPrice: HistoryPoint?
    /// The rule's newest alert for this symbol.
    public var lastAlert: Alert?
    /// The delivery states of ``lastAlert`` (`delivered`, `pending`, `dead`), one per sink.
    public var lastAlertDeliveries: [Delivery.Status]
    /// A technical rule's bars and series values over the stored history (nil for a price rule).
    public var series: SeriesSnapshot?

    public init(rule: String, symbol: String, provider: String?, condition: String, state: State,
                lastPrice: HistoryPoint?, lastAlert: Alert?, lastAlertDeliveries: [Delivery.Status] = []) {
        self.rule = rule
        self.symbol = symbol
        self.provider = provider
        self.condition = condition
        self.state = state
        self.lastPrice = lastPrice
        self.lastAlert = lastAlert
        self.lastAlertDeliveries = lastAlertDeliveries
    }

    /// The state column: a technical rule still warming up says so (`warming up: 37 of 200
    /// bars`) in place of `armed`.
    public func stateText(zone: TimeZone?) -> String {
        if state == .armed, let series, series.isWarmingUp { return series.text }
        return state.text(zone: zone)
    }

    /// The state of `rule` for one symbol given its stored state (nil when none is stored) at
    /// wall time `now`. A state stored under another fingerprint (the condition was edited)
    /// counts as armed, as the engine restarts it.
    public static func state(of rule: Rule, stored: StoredRuleState?, now: Timestamp) -> State {
        if !rule.enabled { return .disabled }
        if let expires = rule.expires, now >= expires { return .expired }
        let state = stored.flatMap { $0.fingerprint == rule.fingerprint ? $0.state : nil } ?? .initial
        if rule.once && state.alertCount > 0 { return .fired }
        if state.phase == .fired { return .fired }
        if let cooldown = rule.cooldown, let last = state.lastAlertAt, now < last.adding(cooldown) {
            return .coolingDown(until: last.adding(cooldown))
        }
        return .armed
    }

    /// One summary of the last alert's deliveries: `delivered`, `pending`, `dead`, or the
    /// mixture (`1 delivered, 1 pending`); `-` without deliveries.
    public var lastAlertDeliveryText: String {
        guard !lastAlertDeliveries.isEmpty else { return "-" }
        let order: [Delivery.Status] = [.delivered, .pending, .dead, .silenced]
        let present = order.filter(lastAlertDeliveries.contains)
        if present.count == 1 { return present[0].rawValue }
        return present.map { status in "\(lastAlertDeliveries.filter { $0 == status }.count) \(status.rawValue)" }
            .joined(separator: ", ")
    }

    /// The columns of the text table.
    public static let header = ["RULE", "SYMBOL", "STATE", "LAST_PRICE", "PRICE_TIME", "LAST_ALERT", "DELIVERY"]

    /// This status as a row of the text table (`-` where there is nothing).
    public var row: [String] { row(zone: nil) }

    /// This status as a row of the text table, times in `zone` (nil: RFC 3339 in UTC).
    public func row(zone: TimeZone?) -> [String] {
        [rule, symbol, stateText(zone: zone),
         lastPrice?.price.formatted(minimumFractionDigits: 2) ?? "-", lastPrice.map { LocalTimeText.stamp($0.time, zone: zone) } ?? "-",
         lastAlert.map { LocalTimeText.stamp($0.time, zone: zone) } ?? "-", lastAlert == nil ? "-" : lastAlertDeliveryText]
    }

    /// One JSON object: `rule`, `symbol`, `provider`, `condition`, `state` (armed, fired,
    /// cooling down, expired, disabled), `cooldown_until`, `last_price`, `last_price_time`,
    /// `last_alert_id`, `last_alert_time`, `last_alert_price`, `last_alert_delivery`; null where
    /// there is nothing; for a technical rule also `bars`, `bars_needed` and each series'
    /// value by its name (`"sma(50)":171.2`), and the state `warming up` while it is.
    public var jsonLine: String {
        var json = JSONWriter()
        json.string("rule", rule)
        json.string("symbol", symbol)
        json.string("provider", provider)
        json.string("condition", condition)
        json.string("state", state == .armed && series?.isWarmingUp == true ? "warming up" : state.name)
        if case .coolingDown(let until) = state { json.time("cooldown_until", until) } else { json.time("cooldown_until", nil) }
        json.number("last_price", lastPrice?.price)
        json.time("last_price_time", lastPrice?.time)
        json.string("last_alert_id", lastAlert?.id)
        json.time("last_alert_time", lastAlert?.time)
        json.number("last_alert_price", lastAlert?.price)
        json.string("last_alert_delivery", lastAlert == nil ? nil : lastAlertDeliveryText)
        if let series {
            json.integer("bars", series.bars)
            json.integer("bars_needed", series.needed)
            for value in series.values { json.number(value.series, value.value) }
        }
        return json.result
    }
}
