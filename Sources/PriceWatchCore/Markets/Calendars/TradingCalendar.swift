import FoundationEssentials

/// One market's trading calendar: its regular hours in its IANA zone, the rules and lists
/// that make holidays, early closes and late opens, and the sessions they give.
///
/// Pure: built from a parsed calendar file, it answers from its arguments alone. Wall-clock
/// times are turned into instants with the zone's rules of that day, so sessions stay at
/// 09:30 local across daylight-saving changes.
public struct TradingCalendar: Sendable {
    /// Regular session hours, in force from `from` (nil: from the beginning) until the next
    /// entry's `from`.
    public struct Hours: Sendable, Hashable {
        public var from: CivilDate?
        public var open: LocalTime
        /// `24:00` closes at the following midnight (the 24/5 and 24/7 pseudo-markets).
        public var close: LocalTime
        public var breakStart: LocalTime?
        public var breakEnd: LocalTime?
        /// The session of a date opens on the calendar day before (CME Globex: Monday's
        /// session opens on Sunday at 17:00 Chicago time).
        public var opensPreviousDay: Bool

        public init(from: CivilDate? = nil, open: LocalTime, close: LocalTime, breakStart: LocalTime? = nil,
                    breakEnd: LocalTime? = nil, opensPreviousDay: Bool = false) {
            self.from = from
            self.open = open
            self.close = close
            self.breakStart = breakStart
            self.breakEnd = breakEnd
            self.opensPreviousDay = opensPreviousDay
        }
    }

    /// A named holiday, early close or late open; `time` is the close or open of that day.
    public struct Entry: Sendable, Hashable {
        public var name: String
        public var rule: CalendarDateRule
        public var time: LocalTime?

        public init(name: String, rule: CalendarDateRule, time: LocalTime? = nil) {
            self.name = name
            self.rule = rule
            self.time = time
        }
    }

    /// What the rules and lists make of a range of years.
    public struct Days: Sendable {
        public var holidays: [CivilDate: String] = [:]
        public var earlyCloses: [CivilDate: LocalTime] = [:]
        public var lateOpens: [CivilDate: LocalTime] = [:]
    }

    public var market: MarketIdentifier
    public var name: String
    /// Other codes for the same calendar (`XNAS` shares `XNYS`'s).
    public var aliases: [MarketIdentifier]
    public var timeZoneIdentifier: String
    public var tradingDays: Set<Weekday>
    /// Sorted by `from`, the first without one.
    public var hours: [Hours]
    public var holidays: [Entry]
    public var earlyCloses: [Entry]
    public var lateOpens: [Entry]
    /// The last year the explicit lists cover (lunar holidays are published a year or so
    /// ahead); nil when the rules alone make the calendar.
    public var listsThrough: Int?

    let zone: TimeZone
    /// Trades every day from 00:00 to 24:00 without a holiday, break or shortened day
    /// (`24/7`): open at every instant, never closing.
    private let neverCloses: Bool
    private let cachedYears: ClosedRange<Int>
    private let cached: Days

    /// The years whose days are computed once, at init; others are computed when asked.
    static let cachedYearRange = 2010...2045

    /// Nil when the zone is not a known IANA zone or `hours` is empty.
    public init?(market: MarketIdentifier, name: String, aliases: [MarketIdentifier] = [], timeZoneIdentifier: String,
                 tradingDays: Set<Weekday>, hours: [Hours], holidays: [Entry] = [], earlyCloses: [Entry] = [],
                 lateOpens: [Entry] = [], listsThrough: Int? = nil) {
        guard let zone = TimeZone(identifier: timeZoneIdentifier), !hours.isEmpty else { return nil }
        self.market = market
        self.name = name
        self.aliases = aliases
        self.timeZoneIdentifier = timeZoneIdentifier
        self.tradingDays = tradingDays
        self.hours = hours.sorted { ($0.from?.dayNumber ?? .min) < ($1.from?.dayNumber ?? .min) }
        self.holidays = holidays
        self.earlyCloses = earlyCloses
        self.lateOpens = lateOpens
        self.listsThrough = listsThrough
        self.zone = zone
        neverCloses = tradingDays.count == 7 && holidays.isEmpty && earlyCloses.isEmpty && lateOpens.isEmpty
            && hours.allSatisfy { $0.open.minuteOfDay == 0 && $0.close.minuteOfDay == 24 * 60 && $0.breakStart == nil
                && !$0.opensPreviousDay }
        cachedYears = Self.cachedYearRange
        cached = Self.days(in: Self.cachedYearRange, holidays: holidays, earlyCloses: earlyCloses, lateOpens: lateOpens)
    }

    /// The holidays, early closes and late opens whose dates fall in `years`.
    public func days(in years: ClosedRange<Int>) -> Days {
        Self.days(in: years, holidays: holidays, earlyCloses: earlyCloses, lateOpens: lateOpens)
    }

    // A year's rules may move a date into the next or previous year (observance), so the
    // computation covers one year either side and keeps what falls inside.
    private static func days(in years: ClosedRange<Int>, holidays: [Entry], earlyCloses: [Entry], lateOpens: [Entry]) -> Days {
        let wide = (years.lowerBound - 1)...(years.upperBound + 1)
        var raw: [(Entry, [CivilDate])] = []
        var taken = Set<CivilDate>()
        for entry in holidays {
            let dates = entry.rule.unobservedDates(in: wide)
            raw.append((entry, dates))
            taken.formUnion(dates)
        }
        var result = Days()
        func keep(_ date: CivilDate, _ rule: CalendarDateRule) -> Bool {
            years.contains(date.year) && (rule.onlyOn.map { $0.contains(date.weekday) } ?? true)
        }
        for (entry, dates) in raw {
            for date in dates {
                let observed = entry.rule.observed(date, taken: taken)
                if keep(observed, entry.rule), result.holidays[observed] == nil { result.holidays[observed] = entry.name }
            }
        }
        for entry in earlyCloses {
            guard let time = entry.time else { continue }
            for date in entry.rule.unobservedDates(in: wide) {
                let observed = entry.rule.observed(date, taken: taken)
                if keep(observed, entry.rule) { result.earlyCloses[observed] = time }
            }
        }
        for entry in lateOpens {
            guard let time = entry.time else { continue }
            for date in entry.rule.unobservedDates(in: wide) {
                let observed = entry.rule.observed(date, taken: taken)
                if keep(observed, entry.rule) { result.lateOpens[observed] = time }
            }
        }
        return result
    }

    private func days(for date: CivilDate) -> Days {
        let year = date.year
        return cachedYears.contains(year) ? cached : days(in: year...year)
    }

    /// The holiday's name when `date` is a holiday (a weekday the market is closed all day).
    public func holidayName(on date: CivilDate) -> String? {
        days(for: date).holidays[date]
    }

    /// The session of `date`, nil when the market does not trade that day.
    public func session(on date: CivilDate) -> TradingSession? {
        guard tradingDays.contains(date.weekday) else { return nil }
        let days = days(for: date)
        guard days.holidays[date] == nil else { return nil }
        guard let hours = regularHours(on: date) else { return nil }
        let openTime = days.lateOpens[date] ?? hours.open
        let closeTime = days.earlyCloses[date] ?? hours.close
        let open = instant(on: hours.opensPreviousDay ? date.adding(days: -1) : date, at: openTime)
        let close = instant(on: date, at: closeTime)
        var session = TradingSession(date: date, open: open, close: close)
        if let breakStart = hours.breakStart, let breakEnd = hours.breakEnd, closeTime >= breakEnd, openTime < breakStart {
            session.breakStart = instant(on: date, at: breakStart)
            session.breakEnd = instant(on: date, at: breakEnd)
        }
        return session
    }

    /// Every session whose date is in `first ... last`, in order.
    public func sessions(from first: CivilDate, through last: CivilDate) -> [TradingSession] {
        guard first <= last else { return [] }
        return (first.dayNumber...last.dayNumber).compactMap { session(on: CivilDate(dayNumber: $0)) }
    }

    /// The market's date at `instant` (its wall-clock date in its zone).
    public func localDate(of instant: Timestamp) -> CivilDate {
        let seconds = instant.seconds + Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant.seconds))))
        return CivilDate(dayNumber: seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
    }

    /// The instant of a wall-clock time on a date in the market's zone. A time skipped by a
    /// daylight-saving change resolves with the offset in force before it.
    public func instant(on date: CivilDate, at time: LocalTime) -> Timestamp {
        let local = date.dayNumber * 86_400 + Int64(time.minuteOfDay) * 60
        let first = offset(atUTCSeconds: local)
        let guess = local - first
        let second = offset(atUTCSeconds: guess)
        return Timestamp(seconds: local - second)
    }

    private func offset(atUTCSeconds seconds: Int64) -> Int64 {
        Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))))
    }

    /// Whether the regular session is under way at `instant` and until when; past the last
    /// session within about a year, `.closed(until: nil)`. A market that never closes
    /// (`24/7`) is open until the end of time (`Timestamp(milliseconds: .max)`), as a market
    /// the calendars do not know is: its sessions meet at midnight, which is no close.
    public func status(at instant: Timestamp) -> MarketStatus {
        if neverCloses { return .open(until: Timestamp(milliseconds: .max)) }
        let today = localDate(of: instant)
        for dayNumber in (today.dayNumber - 1)...(today.dayNumber + 1) {
            guard let session = session(on: CivilDate(dayNumber: dayNumber)),
                  session.open <= instant, instant < session.close else { continue }
            if let breakStart = session.breakStart, let breakEnd = session.breakEnd {
                if instant < breakStart { return .open(until: breakStart) }
                if instant < breakEnd { return .closed(until: breakEnd) }
            }
            return .open(until: session.close)
        }
        return .closed(until: nextOpen(after: instant, from: today.adding(days: -1)))
    }

    /// The session `instant` lies in, from its open to its close (a lunch break included); nil
    /// outside every session.
    public func session(containing instant: Timestamp) -> TradingSession? {
        let today = localDate(of: instant)
        for dayNumber in (today.dayNumber - 1)...(today.dayNumber + 1) {
            if let session = session(on: CivilDate(dayNumber: dayNumber)), session.open <= instant, instant < session.close {
                return session
            }
        }
        return nil
    }

    /// The first session open (or end of a break) after `instant`, looking up to 400 days ahead.
    public func nextOpen(after instant: Timestamp) -> Timestamp? {
        nextOpen(after: instant, from: localDate(of: instant).adding(days: -1))
    }

    private func nextOpen(after instant: Timestamp, from start: CivilDate) -> Timestamp? {
        for step in 0..<400 {
            guard let session = session(on: start.adding(days: step)) else { continue }
            if session.open > instant { return session.open }
            if let breakEnd = session.breakEnd, breakEnd > instant { return breakEnd }
        }
        return nil
    }
}
