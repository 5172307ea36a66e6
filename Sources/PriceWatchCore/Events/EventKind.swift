/// What an event rule watches (`event = "..."`, `docs/events.md`): a date of a company's
/// calendar, or its news headlines.
public enum EventKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A quarterly or annual earnings report.
    case earnings
    /// The first day a share trades without its next dividend.
    case exDividend = "ex_dividend"
    /// The day a dividend is paid.
    case dividendPayment = "dividend_payment"
    /// A stock split (or reverse split) taking effect.
    case split
    /// A headline in the symbol's news feed.
    case news

    /// Whether the event is a date of a calendar (everything but `news`): those take `before`.
    public var isCalendarDate: Bool { self != .news }

    /// The names as `event` takes them, in documentation order.
    public static var names: [String] { allCases.map(\.rawValue) }

    public var description: String { rawValue }
}
