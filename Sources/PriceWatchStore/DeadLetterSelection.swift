import PriceWatchCore

/// Which dead letters (deliveries given up on) an operator means: every condition given must
/// hold; none given selects them all.
public struct DeadLetterSelection: Sendable, Hashable {
    /// One alert's dead deliveries (its id as `pricewatch alerts` shows it).
    public var alertID: String?
    /// Dead deliveries to one sink (its name in the configuration).
    public var sink: String?
    /// Dead deliveries of alerts whose quote time is at or after this.
    public var since: Timestamp?

    public init(alertID: String? = nil, sink: String? = nil, since: Timestamp? = nil) {
        self.alertID = alertID
        self.sink = sink
        self.since = since
    }
}
