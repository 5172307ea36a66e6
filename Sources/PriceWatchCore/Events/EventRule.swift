/// A validated event rule (`[[rule]]` with `event`, `docs/events.md`): notify when something
/// happens to a company rather than to its price.
///
/// Event rules are kept apart from price rules (``Configuration/eventRules``): nothing that
/// evaluates quotes sees them, and they are not polled for prices.
public struct EventRule: Sendable, Hashable {
    public var id: String
    public var event: EventKind
    /// The symbols watched: written with `symbol`/`symbols`, or the holdings of ``portfolio``
    /// as they were when the configuration was loaded.
    public var symbols: [String]
    /// `portfolio`: the portfolio whose holdings are watched, when the rule names one.
    public var portfolio: String?
    /// `before`: how long before a calendar event to notify (nil: on its day); never set for news.
    public var before: RuleDuration?
    /// `match`: the words a news headline must contain (any of them); empty: every headline.
    public var match: HeadlineMatch
    /// Sink names (resolved from the main file's default).
    public var notify: [String]
    public var enabled: Bool

    public init(id: String, event: EventKind, symbols: [String], portfolio: String? = nil, before: RuleDuration? = nil,
                match: HeadlineMatch = HeadlineMatch(), notify: [String] = [], enabled: Bool = true) {
        self.id = id
        self.event = event
        self.symbols = symbols
        self.portfolio = portfolio
        self.before = before
        self.match = match
        self.notify = notify
        self.enabled = enabled
    }
}
