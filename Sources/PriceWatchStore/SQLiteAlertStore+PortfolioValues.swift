import PriceWatchCore

extension SQLiteAlertStore: PortfolioValueStore {
    public func recordPortfolioValue(_ point: PortfolioValuePoint) async throws {
        try await write("recording a portfolio's value") { db in try PortfolioValueTable.upsert(point, in: db) }
    }

    public func portfolioValues(portfolio: String, since: Timestamp) async throws -> [PortfolioValuePoint] {
        try await read("reading a portfolio's values") { db in try PortfolioValueTable.points(portfolio: portfolio, since: since, in: db) }
    }
}
