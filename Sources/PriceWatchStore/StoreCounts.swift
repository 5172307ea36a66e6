/// How many rows the state database holds (for status output and tests).
public struct StoreCounts: Sendable, Hashable {
    /// Stored quotes, all providers and symbols.
    public var quotes: Int
    /// Stored rule-and-symbol states.
    public var ruleStates: Int
    /// Alerts in the log.
    public var alerts: Int
    /// Deliveries waiting for an attempt.
    public var pendingDeliveries: Int
    /// Deliveries done.
    public var deliveredDeliveries: Int
    /// Deliveries given up on.
    public var deadDeliveries: Int

    /// Creates counts from their parts.
    public init(quotes: Int, ruleStates: Int, alerts: Int, pendingDeliveries: Int, deliveredDeliveries: Int,
                deadDeliveries: Int) {
        self.quotes = quotes
        self.ruleStates = ruleStates
        self.alerts = alerts
        self.pendingDeliveries = pendingDeliveries
        self.deliveredDeliveries = deliveredDeliveries
        self.deadDeliveries = deadDeliveries
    }
}
