/// Where the daemon keeps each portfolio's daily value (``PortfolioValuePoint``).
///
/// Implementations record a point per portfolio and UTC day, a later one replacing the day's
/// earlier one, and read a portfolio's points oldest first.
public protocol PortfolioValueStore: Sendable {
    /// Records `point`, replacing the point of the same portfolio and day.
    func recordPortfolioValue(_ point: PortfolioValuePoint) async throws
    /// `portfolio`'s points of the days from `since` on, oldest first.
    func portfolioValues(portfolio: String, since: Timestamp) async throws -> [PortfolioValuePoint]
}
