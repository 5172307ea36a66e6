import FoundationEssentials

/// The span a digest looks back over: the day, week or month before it is due, counted in
/// calendar days of its time zone, so a week across a DST change is 167 or 169 hours and a
/// month is the calendar month's length.
public enum DigestPeriod: String, Sendable, Hashable, CaseIterable {
    case day
    case week
    case month

    /// `start ..< end`, where `end` is the due time and `start` the same local time one day,
    /// seven days or one month earlier in `timeZone` (an IANA identifier). `nil` when the
    /// time zone is unknown.
    public func window(endingAt end: Timestamp, timeZone: String) -> Range<Timestamp>? {
        guard let zone = TimeZone(identifier: timeZone) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let due = Date(timeIntervalSince1970: Double(end.milliseconds) / 1000)
        let back: DateComponents = switch self {
        case .day: DateComponents(day: -1)
        case .week: DateComponents(day: -7)
        case .month: DateComponents(month: -1)
        }
        guard let begin = calendar.date(byAdding: back, to: due) else { return nil }
        let start = Timestamp(milliseconds: Int64((begin.timeIntervalSince1970 * 1000).rounded()))
        return start < end ? start ..< end : nil
    }
}
