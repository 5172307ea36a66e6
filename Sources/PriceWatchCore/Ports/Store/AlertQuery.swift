/// Which alerts `pricewatch alerts` lists: every condition given must hold.
public struct AlertQuery: Sendable, Hashable {
    /// Alerts whose quote time is at or after this.
    public var since: Timestamp?
    /// Alerts of this rule id.
    public var rule: String?
    /// Alerts of this symbol.
    public var symbol: String?
    /// Alerts with at least one delivery in this state; only those deliveries are listed.
    public var status: Delivery.Status?

    public init(since: Timestamp? = nil, rule: String? = nil, symbol: String? = nil, status: Delivery.Status? = nil) {
        self.since = since
        self.rule = rule
        self.symbol = symbol
        self.status = status
    }
}
