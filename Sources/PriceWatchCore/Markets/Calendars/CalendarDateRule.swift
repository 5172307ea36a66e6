/// Which dates a calendar entry (a holiday, an early close, a late open) falls on: a rule that
/// generates one date a year, or an explicit list of dates.
public struct CalendarDateRule: Sendable, Hashable {
    /// Where the date comes from, before `offsetDays`, the observance and the filters.
    public enum Basis: Sendable, Hashable {
        /// The same month and day every year (`12-25`).
        case fixed(month: Int, day: Int)
        /// The nth weekday of a month (`nth` 1 ... 5), or the last one (`nth` -1).
        case nthWeekday(month: Int, weekday: Weekday, nth: Int)
        /// The first `weekday` on or after a month and day (Victoria Day: Monday on or after 05-18).
        case weekdayOnOrAfter(month: Int, day: Int, weekday: Weekday)
        /// Days after (or, negative, before) Western Easter Sunday: Good Friday is -2.
        case easter(offset: Int)
        /// Explicit dates: one-off closures, lunar holidays, equinoxes.
        case dates([CivilDate])
    }

    /// How a date that falls on a weekend moves.
    public enum Observance: String, Sendable, Hashable, CaseIterable {
        /// It does not move (a weekend holiday is simply not a trading day anyway).
        case none
        /// Sunday moves to Monday; Saturday does not move.
        case sundayToMonday = "sunday-to-monday"
        /// Saturday and Sunday move to Monday.
        case weekendToMonday = "weekend-to-monday"
        /// Saturday moves to Friday, Sunday to Monday.
        case nearestWeekday = "nearest-weekday"
        /// Saturday and Sunday move to the Friday before.
        case previousWeekday = "previous-weekday"
        /// Sunday moves to the next weekday that is not already a holiday (Japan's substitute
        /// holiday).
        case sundayToNextFreeDay = "sunday-to-next-free-day"
    }

    public var basis: Basis
    /// Days added after the basis (the day after Thanksgiving: 4th Thursday of November + 1).
    public var offsetDays: Int
    public var observance: Observance
    /// When set, the (observed) date counts only if it falls on one of these days.
    public var onlyOn: Set<Weekday>?
    /// The first and last years the rule applies (by the year of its basis date).
    public var since: Int?
    public var until: Int?
    /// Years the rule skips (the UK's early May bank holiday moved in 2020).
    public var exceptYears: Set<Int>

    public init(_ basis: Basis, offsetDays: Int = 0, observance: Observance = .none, onlyOn: Set<Weekday>? = nil,
                since: Int? = nil, until: Int? = nil, exceptYears: Set<Int> = []) {
        self.basis = basis
        self.offsetDays = offsetDays
        self.observance = observance
        self.onlyOn = onlyOn
        self.since = since
        self.until = until
        self.exceptYears = exceptYears
    }

    /// Whether the rule applies in `year`.
    func applies(in year: Int) -> Bool {
        if let since, year < since { return false }
        if let until, year > until { return false }
        return !exceptYears.contains(year)
    }

    /// The dates before observance and filters whose basis year is in `years`.
    func unobservedDates(in years: ClosedRange<Int>) -> [CivilDate] {
        switch basis {
        case .dates(let dates):
            return dates.filter { years.contains($0.year) && applies(in: $0.year) }.map { $0.adding(days: offsetDays) }
        default:
            return years.filter(applies(in:)).compactMap { year in basisDate(in: year)?.adding(days: offsetDays) }
        }
    }

    func basisDate(in year: Int) -> CivilDate? {
        switch basis {
        case .fixed(let month, let day):
            return CivilDate(year: year, month: month, day: day)
        case .nthWeekday(let month, let weekday, let nth):
            if nth > 0 {
                guard let first = CivilDate(year: year, month: month, day: 1) else { return nil }
                let shift = (weekday.index - first.weekday.index + 7) % 7
                let date = first.adding(days: shift + 7 * (nth - 1))
                return date.month == month ? date : nil
            }
            guard let last = CivilDate(year: year, month: month, day: Timestamp.daysIn(month: month, year: year)) else { return nil }
            return last.adding(days: -((last.weekday.index - weekday.index + 7) % 7))
        case .weekdayOnOrAfter(let month, let day, let weekday):
            guard let start = CivilDate(year: year, month: month, day: day) else { return nil }
            return start.adding(days: (weekday.index - start.weekday.index + 7) % 7)
        case .easter(let offset):
            return Self.easterSunday(year).adding(days: offset)
        case .dates:
            return nil
        }
    }

    /// Western (Gregorian) Easter Sunday: the anonymous Gregorian algorithm (Meeus/Jones/Butcher).
    static func easterSunday(_ year: Int) -> CivilDate {
        let a = year % 19, b = year / 100, c = year % 100
        let d = b / 4, e = b % 4, f = (b + 8) / 25, g = (b - f + 1) / 3
        let h = (19 * a + b - d - g + 15) % 30
        let i = c / 4, k = c % 4
        let l = (32 + 2 * e + 2 * i - h - k) % 7
        let m = (a + 11 * h + 22 * l) / 451
        let month = (h + l - 7 * m + 114) / 31
        let day = (h + l - 7 * m + 114) % 31 + 1
        return CivilDate(dayNumber: Timestamp.daysFromCivil(year: year, month: month, day: day))
    }

    /// `date` moved by the observance; `taken` is the set of holidays already known (only
    /// `sundayToNextFreeDay` reads it).
    func observed(_ date: CivilDate, taken: Set<CivilDate>) -> CivilDate {
        let weekday = date.weekday
        switch observance {
        case .none:
            return date
        case .sundayToMonday:
            return weekday == .sunday ? date.adding(days: 1) : date
        case .weekendToMonday:
            return weekday == .saturday ? date.adding(days: 2) : weekday == .sunday ? date.adding(days: 1) : date
        case .nearestWeekday:
            return weekday == .saturday ? date.adding(days: -1) : weekday == .sunday ? date.adding(days: 1) : date
        case .previousWeekday:
            return weekday == .saturday ? date.adding(days: -1) : weekday == .sunday ? date.adding(days: -2) : date
        case .sundayToNextFreeDay:
            guard weekday == .sunday else { return date }
            var next = date.adding(days: 1)
            while next.weekday.isWeekend || taken.contains(next) { next = next.adding(days: 1) }
            return next
        }
    }
}
