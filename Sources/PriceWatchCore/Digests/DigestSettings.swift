/// One `[[digest]]` of the main file: what goes in a digest, when it is due and where it goes
/// (`docs/digests.md`, "Configuration").
public struct DigestSettings: Sendable, Hashable {
    /// `top` when not given.
    public static let defaultTopCount = 5

    /// Unique among the digests: the job's name (`digest:NAME`) and part of each digest's id.
    public var name: String
    /// When it is due, in its time zone (`weekly mon 08:00 America/New_York`).
    public var schedule: CalendarSchedule
    /// The span before the due time it covers.
    public var period: DigestPeriod
    /// The sinks it goes to.
    public var notify: [String]
    /// How many gainers and how many losers.
    public var topCount: Int
    /// Whether the top movers' charts are drawn (PNG, shown inline in email).
    public var charts: Bool
    /// The markets whose state it shows.
    public var markets: [MarketIdentifier]

    public init(name: String, schedule: CalendarSchedule, period: DigestPeriod, notify: [String],
                topCount: Int = DigestSettings.defaultTopCount, charts: Bool = true, markets: [MarketIdentifier] = []) {
        self.name = name
        self.schedule = schedule
        self.period = period
        self.notify = notify
        self.topCount = topCount
        self.charts = charts
        self.markets = markets
    }

    /// The IANA identifier of the schedule's zone, in which the digest shows its times.
    public var timeZone: String {
        schedule.timeZone.identifier == "GMT" ? "UTC" : schedule.timeZone.identifier
    }

    /// The id of the digest due at `due`: the same for every attempt to make that digest (a
    /// job run after a restart, `pricewatch digest --send`), so the outbox keeps one.
    public func notificationID(due: Timestamp) -> String {
        NotificationID.make(kind: .digest, parts: [name, due.rfc3339])
    }
}
