extension TradingCalendar {
    /// The regular hours in force on `date`: the entry with the latest `from` at or before it.
    func regularHours(on date: CivilDate) -> Hours? {
        hours.last { ($0.from ?? date) <= date } ?? hours.first
    }

    /// Whether `session` closes before the regular close of its date (an early close).
    public func closesEarly(_ session: TradingSession) -> Bool {
        guard let regular = regularHours(on: session.date) else { return false }
        return session.close < instant(on: session.date, at: regular.close)
    }

    /// Whether `session` opens after the regular open of its date (a late open).
    public func opensLate(_ session: TradingSession) -> Bool {
        guard let regular = regularHours(on: session.date) else { return false }
        return session.open > instant(on: regular.opensPreviousDay ? session.date.adding(days: -1) : session.date, at: regular.open)
    }

    /// The session under way at `instant` (a lunch break included), else the next one to
    /// open, looking up to 400 days ahead; nil past the calendar's data.
    public func currentOrNextSession(at instant: Timestamp) -> TradingSession? {
        let start = localDate(of: instant).adding(days: -1)
        for step in 0..<400 {
            if let session = session(on: start.adding(days: step)), session.close > instant { return session }
        }
        return nil
    }

    /// The close of the session under way at `instant`, or of the next one when none is, when
    /// that session closes early (the day after Thanksgiving on the NYSE: 13:00 New York time);
    /// nil when it closes at the regular time, for a market that never closes, and past the
    /// calendar's data.
    public func earlyClose(at instant: Timestamp) -> Timestamp? {
        guard !earlyCloses.isEmpty, let session = currentOrNextSession(at: instant), closesEarly(session) else { return nil }
        return session.close
    }
}
