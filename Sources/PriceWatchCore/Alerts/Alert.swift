/// A fired alert: everything a sink needs to tell a person what happened (`docs/rules.md`, "Alerts").
///
/// The `id` is stable: it is derived from the rule, its condition, the symbol and the quote
/// time, so retries, restarts and replays of the same data carry the same id and receivers can
/// deduplicate.
public struct Alert: Sendable, Hashable, Codable {
    public var id: String
    public var rule: String
    public var symbol: String
    /// The provider whose quote fired it (nil in backtests).
    public var provider: String?
    /// Human-readable condition: `above 200`, `fall 3% from previous close`.
    public var condition: String
    public var price: ExactDecimal
    public var currency: String?
    /// The quote time.
    public var time: Timestamp
    /// Percent rules: the base price and the change in percent.
    public var base: ExactDecimal?
    public var change: ExactDecimal?
    /// `crosses` rules: the side the price moved to, `up` or `down`.
    public var direction: String?
    /// The rendered `message` template, or the default one-line summary.
    public var message: String
    /// Technical rules: the series compared and their values at the bar that fired.
    public var series: SeriesReading?

    public init(id: String, rule: String, symbol: String, provider: String?, condition: String,
                price: ExactDecimal, currency: String?, time: Timestamp, base: ExactDecimal?,
                change: ExactDecimal?, direction: String?, message: String) {
        self.id = id
        self.rule = rule
        self.symbol = symbol
        self.provider = provider
        self.condition = condition
        self.price = price
        self.currency = currency
        self.time = time
        self.base = base
        self.change = change
        self.direction = direction
        self.message = message
    }

    /// Builds the alert a rule fires for a quote.
    public init(rule: Rule, quote: Quote, provider: String?, trigger: RuleStateMachine.Trigger) {
        self.init(rule: rule, fingerprint: rule.fingerprint, conditionText: rule.conditionText, quote: quote,
                  provider: provider, trigger: trigger)
    }

    /// Builds the alert with the rule's `fingerprint` and `conditionText` computed beforehand
    /// (the engine keeps them per rule).
    init(rule: Rule, fingerprint: String, conditionText: String, quote: Quote, provider: String?,
         trigger: RuleStateMachine.Trigger, series: SeriesReading? = nil) {
        self.init(ruleID: rule.id, message: rule.message, fingerprint: fingerprint, conditionText: conditionText, quote: quote,
                  provider: provider, trigger: trigger, series: series)
    }

    /// The same from the rule's id and message only (the engine's bar close reads those two
    /// fields in place rather than copying the whole rule for each alert).
    init(ruleID: String, message template: MessageTemplate?, fingerprint: String, conditionText: String, quote: Quote,
         provider: String?, trigger: RuleStateMachine.Trigger, series: SeriesReading? = nil, idPrefix: FNV1a128? = nil) {
        self.init(
            id: AlertID.make(prefix: idPrefix ?? AlertID.prefix(rule: ruleID, fingerprint: fingerprint), symbol: quote.symbol,
                             time: quote.time),
            rule: ruleID, symbol: quote.symbol, provider: provider, condition: conditionText,
            price: trigger.price, currency: quote.currency, time: quote.time, base: trigger.base,
            change: trigger.change, direction: trigger.side?.rawValue, message: "")
        self.series = series
        let zone = quote.exchangeTimeZone
        self.message = template?.render { placeholder in
            placeholder == .localTime ? localTime(inZone: zone) : placeholderValue(placeholder)
        } ?? defaultMessage
    }

    /// `AAPL 200.50 USD: above 200 (rule aapl-200)`; without a currency, `BTC-USD 99999.50:
    /// crosses 100000 (up) (rule btc-100k)`.
    var defaultMessage: String {
        let amount = [placeholderValue(.price), currency].compactMap { $0 }.joined(separator: " ")
        if let series {
            return "\(symbol) \(amount): \(series.text(verb: seriesVerb)) on \(series.timeframe) bars (rule \(rule))"
        }
        return "\(symbol) \(amount): \(placeholderValue(.condition) ?? condition) (rule \(rule))"
    }

    /// A technical alert's condition as it happened: `crossed above`, `below`, `rose 2%`.
    public var seriesVerb: String {
        // The key the reading carries; an alert stored without it finds it in its condition.
        let key = series?.condition ?? condition.split(separator: " ")
            .first(where: { ["above", "below", "crosses", "rise", "fall", "move"].contains(String($0)) }).map(String.init)
        switch key {
        case "crosses": return direction == "down" ? "crossed below" : "crossed above"
        case "rise", "fall", "move":
            let amount = change.map { ($0.isPositive ? "+" : "") + $0.formatted(minimumFractionDigits: 2) + "%" } ?? ""
            return "moved \(amount) against"
        default: return key ?? "reached"
        }
    }

    /// The text a placeholder stands for in this alert.
    public func placeholderValue(_ placeholder: MessageTemplate.Placeholder) -> String? {
        switch placeholder {
        case .rule: rule
        case .symbol: symbol
        case .price: price.formatted(minimumFractionDigits: 2)
        case .currency: currency.map(ControlCharacters.escaped)
        case .condition: direction.map { "\(condition) (\($0))" } ?? condition
        case .time: time.rfc3339
        case .base: base?.formatted(minimumFractionDigits: 2)
        case .change: change.map { ($0.isPositive ? "+" : "") + $0.formatted(minimumFractionDigits: 2) + "%" }
        case .localTime: localTime(inZone: nil)
        }
    }
}
