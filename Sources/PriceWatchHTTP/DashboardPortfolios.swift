import PriceWatchCore

/// What `/portfolio/NAME` shows: the valuations `pricewatch portfolio` computes for the same
/// state, or why there are none.
public enum DashboardPortfolios: Sendable {
    /// The valuations (one, for a page of one portfolio), each portfolio's recorded daily
    /// values by name (``PortfolioValuePoint``, oldest first): its value over time, and each
    /// portfolio's lots by name (the positions' individual purchases and sales).
    case valued([PortfolioValuation], values: [String: [PortfolioValuePoint]] = [:], lots: [String: [PortfolioLot]] = [:])
    /// No portfolio has the name asked for; the names there are.
    case unknown(available: [String])
    /// The configuration or the state could not be read: for one line.
    case failed(String)
}
