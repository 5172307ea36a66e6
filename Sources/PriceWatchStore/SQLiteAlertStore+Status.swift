import PriceWatchCore

/// A provider and one of its symbols: the key of the newest stored quotes (the core's
/// ``QuoteSource``, under the name the store's readers have always used).
public typealias ProviderSymbol = QuoteSource

extension SQLiteAlertStore {
    /// The alert log filtered by `query` (see ``AlertQuery``), oldest first.
    public func alerts(matching query: AlertQuery) async throws -> [AlertRecord] {
        try await read("reading alerts") { db in try StatusQueries.alerts(matching: query, in: db) }
    }

    /// The newest alert of every rule and symbol, with its deliveries.
    public func lastAlerts() async throws -> [RuleStateKey: AlertRecord] {
        try await read("reading the last alerts") { db in try StatusQueries.lastAlerts(in: db) }
    }

    /// The newest stored quote of every provider and symbol.
    public func latestQuotes() async throws -> [ProviderSymbol: HistoryPoint] {
        try await read("reading the latest quotes") { db in try StatusQueries.latestQuotes(in: db) }
    }
}
