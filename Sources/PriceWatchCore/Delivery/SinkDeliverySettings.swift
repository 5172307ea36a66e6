/// How the dispatcher delivers to one sink: the `max_age`, `group_wait`, `concurrency`,
/// `quiet` and `rate_limit` of its `[sinks.NAME]` table. A nil value means the dispatcher's
/// own default (for `rate_limit`: no limit).
public struct SinkDeliverySettings: Sendable, Hashable {
    /// Give up retrying this many milliseconds after an alert was queued.
    public var maximumAge: Int64?
    /// Group alerts queued within this many milliseconds of the first; nil: no grouping.
    public var groupWait: Int64?
    /// Deliveries (or groups) in flight at once.
    public var concurrency: Int?
    /// Hold notifications during these hours; nil: never.
    public var quietHours: QuietHours?
    /// At most this many attempts in any window of its length; nil: no limit.
    public var rateLimit: DeliveryRateLimit?

    public init(maximumAge: Int64? = nil, groupWait: Int64? = nil, concurrency: Int? = nil, quietHours: QuietHours? = nil,
                rateLimit: DeliveryRateLimit? = nil) {
        self.maximumAge = maximumAge
        self.groupWait = groupWait
        self.concurrency = concurrency
        self.quietHours = quietHours
        self.rateLimit = rateLimit
    }

    /// The settings a `[sinks.NAME]` table configures.
    public init(_ configuration: SinkConfiguration) {
        self.init(maximumAge: configuration.maxAge.seconds * 1000,
                  groupWait: configuration.groupWait.map { $0.seconds * 1000 },
                  concurrency: configuration.concurrency, quietHours: configuration.quietHours,
                  rateLimit: configuration.rateLimit)
    }
}
