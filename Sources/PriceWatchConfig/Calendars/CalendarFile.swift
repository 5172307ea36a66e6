import PriceWatchCore

/// One calendar file as read: the market it is about, whether it replaces a shipped calendar
/// of the same code or extends it, and its parts (any may be missing in an extending file).
public struct CalendarFile: Sendable {
    public var path: String
    public var market: MarketIdentifier
    /// `replace = true` in an override: the file is the whole calendar. Otherwise an override
    /// of a known market adds its entries to the shipped calendar.
    public var replaces: Bool
    public var name: String?
    public var aliases: [MarketIdentifier]
    public var timeZoneIdentifier: String?
    public var tradingDays: Set<Weekday>?
    public var hours: [TradingCalendar.Hours]
    public var holidays: [TradingCalendar.Entry]
    public var earlyCloses: [TradingCalendar.Entry]
    public var lateOpens: [TradingCalendar.Entry]
    public var listsThrough: Int?

    /// The calendar this file defines on its own; nil (with an error) when a required part
    /// is missing.
    func standalone() -> Result<TradingCalendar, Diagnostic> {
        guard let timeZoneIdentifier else {
            return .failure(.error("calendar \(market): missing key 'time_zone' (an IANA zone such as \"America/New_York\")", path: path))
        }
        guard !hours.isEmpty else {
            return .failure(.error("calendar \(market): missing [[hours]] (the regular open and close)", path: path))
        }
        guard let calendar = TradingCalendar(
            market: market, name: name ?? market.rawValue, aliases: aliases, timeZoneIdentifier: timeZoneIdentifier,
            tradingDays: tradingDays ?? [.monday, .tuesday, .wednesday, .thursday, .friday], hours: hours,
            holidays: holidays, earlyCloses: earlyCloses, lateOpens: lateOpens, listsThrough: listsThrough)
        else {
            return .failure(.error("calendar \(market): unknown time zone '\(ControlCharacters.shortened(timeZoneIdentifier))'", path: path))
        }
        return .success(calendar)
    }

    /// `base` with this file's entries added (an extending override).
    func extending(_ base: TradingCalendar) -> Result<TradingCalendar, Diagnostic> {
        let zone = timeZoneIdentifier ?? base.timeZoneIdentifier
        guard let calendar = TradingCalendar(
            market: base.market, name: name ?? base.name, aliases: base.aliases + aliases, timeZoneIdentifier: zone,
            tradingDays: tradingDays ?? base.tradingDays, hours: base.hours + hours,
            holidays: base.holidays + holidays, earlyCloses: base.earlyCloses + earlyCloses,
            lateOpens: base.lateOpens + lateOpens, listsThrough: [base.listsThrough, listsThrough].compactMap { $0 }.max())
        else {
            return .failure(.error("calendar \(market): unknown time zone '\(ControlCharacters.shortened(zone))'", path: path))
        }
        return .success(calendar)
    }
}
