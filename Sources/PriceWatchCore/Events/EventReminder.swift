import FoundationEssentials

/// When a calendar rule reminds of an event (`docs/events.md`, "When a reminder is sent"), pure.
///
/// The reminder is due `before` ahead of the event day's regular session open in the symbol's
/// market (no `before`: at that open), and may be sent until the end of the event's day (its
/// last day, for an estimated range) in the market's zone: a daemon that was down at the due
/// time sends it when it starts, before the event; after the event it sends nothing. Without a
/// calendar for the market (or on a day with no session) the "open" is 00:00 of the day in the
/// market's zone, or in UTC when the market is unknown.
public enum EventReminder {
    /// The instant the reminder of `event` for `rule` is due, and the end of its window.
    public static func window(of event: CompanyEvent, before: RuleDuration?, hours: any MarketHours) -> (due: Timestamp, end: Timestamp) {
        let market = hours.market(ofSymbol: event.symbol, exchange: nil)
        let zone = market.flatMap(hours.timeZone(of:)).flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC") ?? .gmt
        let dayStart = localMidnight(of: event.date, in: zone)
        var open = dayStart
        if let market, case .closed(let next?) = hours.status(of: market, at: dayStart),
           next.milliseconds < localMidnight(of: CivilDate(dayNumber: event.date.dayNumber + 1), in: zone).milliseconds {
            open = next
        }
        let due = Timestamp(milliseconds: open.milliseconds - (before?.seconds ?? 0) * 1000)
        let last = event.lastDate ?? event.date
        return (due, localMidnight(of: CivilDate(dayNumber: last.dayNumber + 1), in: zone))
    }

    /// Whether the reminder is to be sent at `now`.
    public static func isDue(_ event: CompanyEvent, before: RuleDuration?, hours: any MarketHours, now: Timestamp) -> Bool {
        let window = window(of: event, before: before, hours: hours)
        return window.due <= now && now < window.end
    }

    /// 00:00 of `date` in `zone`, as an instant.
    static func localMidnight(of date: CivilDate, in zone: TimeZone) -> Timestamp {
        let utcMidnight = date.dayNumber * 86_400
        // The offset at that day's UTC midnight, corrected once if the local midnight falls on
        // the other side of a change of offset.
        var offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(utcMidnight))))
        offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(utcMidnight - offset))))
        return Timestamp(milliseconds: (utcMidnight - offset) * 1000)
    }
}
