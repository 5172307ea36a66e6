/// A source of companies' calendars: upcoming earnings dates, ex-dividend and payment days.
///
/// Contract: ``events(for:)`` reads the source once (no retries, no sleeping) and returns what
/// it lists for the symbol, past and upcoming; an empty list when it knows nothing (never a
/// guessed date). Errors are ``ProviderError``s naming the source, the symbol and, for a
/// malformed answer, the field; never a secret.
public protocol CompanyCalendarSource: Sendable {
    /// The source's name in events and messages (`yahoo`).
    var calendarName: String { get }
    /// The events the source lists for `symbol` now.
    func events(for symbol: String) async throws(ProviderError) -> [CompanyEvent]
}
