import PriceWatchCore

/// A provider and one of its symbols: the key of the newest stored quotes.
public struct ProviderSymbol: Sendable, Hashable {
    public var provider: String
    public var symbol: String
    public init(provider: String, symbol: String) {
        self.provider = provider
        self.symbol = symbol
    }
}

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
