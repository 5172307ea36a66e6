/// A source of companies' calendars: upcoming earnings dates, ex-dividend and payment days,
/// splits.
///
/// Contract: ``events(for:)`` reads the source once (no retries, no sleeping) and returns what
/// it lists for the symbol, past and upcoming; an empty list when it knows nothing (never a
/// guessed date). Errors are ``ProviderError``s naming the source, the symbol and, for a
/// malformed answer, the field; never a secret. ``lists(_:)`` says which symbols it is asked
/// for at all (Nasdaq's calendars: US listings); ``events(forEach:)`` lets a source whose
/// calendar lists every company at once read it once for many symbols.
public protocol CompanyCalendarSource: Sendable {
    /// The source's name in events and messages (`yahoo`).
    var calendarName: String { get }
    /// Whether the source is asked for `symbol`'s calendar (default: every symbol).
    func lists(_ symbol: String) -> Bool
    /// The events the source lists for `symbol` now.
    func events(for symbol: String) async throws(ProviderError) -> [CompanyEvent]
    /// The events of each of `symbols`, or the error of its read (default: ``events(for:)``
    /// for each, one after another). Cancellation ends it early with the symbols read so far.
    func events(forEach symbols: [String]) async -> [String: Result<[CompanyEvent], ProviderError>]
}

extension CompanyCalendarSource {
    public func lists(_ symbol: String) -> Bool { true }

    public func events(forEach symbols: [String]) async -> [String: Result<[CompanyEvent], ProviderError>] {
        var results: [String: Result<[CompanyEvent], ProviderError>] = [:]
        for symbol in symbols {
            if Task.isCancelled { break }
            do throws(ProviderError) {
                results[symbol] = .success(try await events(for: symbol))
            } catch {
                results[symbol] = .failure(error)
            }
        }
        return results
    }
}
