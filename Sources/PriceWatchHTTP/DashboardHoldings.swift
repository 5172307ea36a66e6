import PriceWatchCore

/// Where a symbol is held, for its page: each portfolio's position in it (as `pricewatch
/// portfolio` values it) and each paper account's (as `pricewatch paper show` states it).
public struct DashboardHoldings: Sendable {
    /// A portfolio's position in the symbol.
    public struct PortfolioHolding: Sendable {
        public var portfolio: String
        public var position: PortfolioValuation.Position
        /// The portfolio file's lots of the symbol (each purchase and sale).
        public var lots: [PortfolioLot]
        public init(portfolio: String, position: PortfolioValuation.Position, lots: [PortfolioLot] = []) {
            self.portfolio = portfolio
            self.position = position
            self.lots = lots
        }
    }

    /// A paper account's position in the symbol, in the account's currency.
    public struct PaperHolding: Sendable {
        public var account: String
        public var currency: String
        public var position: PaperReports.PositionLine
        public init(account: String, currency: String, position: PaperReports.PositionLine) {
            self.account = account
            self.currency = currency
            self.position = position
        }
    }

    public var portfolios: [PortfolioHolding]
    public var paper: [PaperHolding]
    /// What could not be read (a portfolio file with errors, the paper accounts), one line each.
    public var problems: [String]

    public init(portfolios: [PortfolioHolding] = [], paper: [PaperHolding] = [], problems: [String] = []) {
        self.portfolios = portfolios
        self.paper = paper
        self.problems = problems
    }
}
