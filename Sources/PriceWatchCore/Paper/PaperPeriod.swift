/// A return period, as Wealthfolio and Ghostfolio offer them: today, week to date, month to
/// date, year to date, the last year, and since the account opened.
public enum PaperPeriod: String, Sendable, Hashable, CaseIterable {
    case today = "1D"
    case weekToDate = "WTD"
    case monthToDate = "MTD"
    case yearToDate = "YTD"
    case oneYear = "1Y"
    case sinceStart = "ALL"

    /// The period's first day when it ends on `today` (a week starts on Monday; one year starts
    /// the day after the same date a year earlier, 29 February falling back to 28).
    public func firstDay(endingOn today: PaperDay) -> PaperDay {
        let (year, month, day) = today.civil
        switch self {
        case .today:
            return today
        case .weekToDate:
            return today.advanced(by: -Int64(today.isoWeekday - 1))
        case .monthToDate:
            return PaperDay(year: year, month: month, day: 1) ?? today
        case .yearToDate:
            return PaperDay(year: year, month: 1, day: 1) ?? today
        case .oneYear:
            let yearAgo = PaperDay(year: year - 1, month: month, day: day) ?? PaperDay(year: year - 1, month: month,
                                                                                        day: day - 1) ?? today
            return yearAgo.advanced(by: 1)
        case .sinceStart:
            return PaperDay(daysSinceEpoch: .min / 2)
        }
    }
}
