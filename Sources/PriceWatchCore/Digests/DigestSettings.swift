/// One `[[digest]]` of the main file: what goes in a digest, when it is due and where it goes
/// (`docs/digests.md`, "Configuration").
public struct DigestSettings: Sendable, Hashable {
    /// `top` when not given.
    public static let defaultTopCount = 5

    /// Unique among the digests: the job's name (`digest:NAME`) and part of each digest's id.
    public var name: String
    /// When it is due.
    public var schedule: DigestSchedule
    /// The IANA identifier of the zone the digest shows its times in, and its period's days
    /// are counted in: the calendar schedule's zone, or `timezone` with `on_close`.
    public var timeZone: String
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
    /// `portfolios`: the portfolios its performance section reports on (nil: every one).
    public var portfolios: [String]? = nil
    /// `paper`: the paper accounts its performance section reports on (nil: every one).
    public var paperAccounts: [String]? = nil

    public init(name: String, schedule: CalendarSchedule, period: DigestPeriod, notify: [String],
                topCount: Int = DigestSettings.defaultTopCount, charts: Bool = true, markets: [MarketIdentifier] = []) {
        self.init(name: name, schedule: .calendar(schedule), timeZone: schedule.zoneName, period: period, notify: notify,
                  topCount: topCount, charts: charts, markets: markets)
    }

    public init(name: String, schedule: DigestSchedule, timeZone: String, period: DigestPeriod, notify: [String],
                topCount: Int = DigestSettings.defaultTopCount, charts: Bool = true, markets: [MarketIdentifier] = []) {
        self.name = name
        self.schedule = schedule
        self.timeZone = timeZone
        self.period = period
        self.notify = notify
        self.topCount = topCount
        self.charts = charts
        self.markets = markets
    }

    /// The id of the digest due at `due`: the same for every attempt to make that digest (a
    /// job run after a restart, `pricewatch digest --send`), so the outbox keeps one.
    public func notificationID(due: Timestamp) -> String {
        NotificationID.make(kind: .digest, parts: [name, due.rfc3339])
    }
}

/// When a digest is due: wall-clock times (`schedule = "weekly mon 08:00 America/New_York"`) or
/// each close of a market (`on_close = "XNYS"`, from the trading calendars).
public enum DigestSchedule: Sendable, Hashable, CustomStringConvertible {
    case calendar(CalendarSchedule)
    case marketClose(MarketIdentifier)

    /// The schedule the job runs on, with the market hours `on_close` needs.
    public func jobSchedule(marketHours: any MarketHours) -> any JobSchedule {
        switch self {
        case .calendar(let schedule): schedule
        case .marketClose(let market): MarketCloseSchedule(market: market, hours: marketHours)
        }
    }

    public var description: String {
        switch self {
        case .calendar(let schedule): schedule.description
        case .marketClose(let market): "on close of \(market.rawValue)"
        }
    }
}

extension CalendarSchedule {
    /// The zone's IANA name as the operator writes it (`UTC`, not Foundation's `GMT`).
    public var zoneName: String { timeZone.identifier == "GMT" ? "UTC" : timeZone.identifier }
}
