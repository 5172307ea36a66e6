/// What `pricewatch paper show`, `paper history` and `paper leaderboard` report, computed from
/// an account, its ledger and prices: pure, so the commands and their golden tests agree.
public enum PaperReports {
    /// One position valued at its latest price.
    public struct PositionLine: Sendable, Hashable {
        public var symbol: String
        public var quantity: ExactDecimal
        public var netCost: ExactDecimal
        /// Nil when no price of the symbol is known (valued at net cost).
        public var price: ExactDecimal?
        public var value: ExactDecimal
        /// `value - netCost`.
        public var profit: ExactDecimal
    }

    /// `paper show`: cash, positions, P&L and return since start, and the orders.
    public struct Statement: Sendable, Hashable {
        public var account: PaperAccount
        public var cash: ExactDecimal
        public var positions: [PositionLine]
        public var equity: ExactDecimal
        /// `equity - startingCash`.
        public var profit: ExactDecimal
        /// `profit / startingCash`.
        public var returnSinceStart: Double
        public var feesPaid: ExactDecimal
        public var orders: [PaperOrderRecord]
    }

    /// Builds the statement of `account` from its postings, orders and latest prices.
    public static func statement(account: PaperAccount, postings: [PaperPosting], orders: [PaperOrderRecord],
                                 prices: [String: ExactDecimal]) -> Statement {
        let book = PaperBook(postings: postings)
        var lines: [PositionLine] = []
        for (symbol, position) in book.positions.sorted(by: { $0.key < $1.key }) {
            let price = prices[symbol]
            let value = price.flatMap { position.quantity.multiplied(by: $0) } ?? position.netCost
            lines.append(PositionLine(symbol: symbol, quantity: position.quantity, netCost: position.netCost, price: price,
                                      value: value, profit: ExactDecimal(scaled: value.scaled &- position.netCost.scaled)))
        }
        let equity = book.valuation(prices: prices)?.equity ?? book.cash
        let profit = ExactDecimal(scaled: equity.scaled &- account.startingCash.scaled)
        let ratio = account.startingCash.isPositive ? profit.doubleValue / account.startingCash.doubleValue : 0
        return Statement(account: account, cash: book.cash, positions: lines, equity: equity, profit: profit,
                         returnSinceStart: ratio, feesPaid: book.feesPaid, orders: orders)
    }

    /// `paper history`: the daily equity and the returns of every period.
    public struct History: Sendable, Hashable {
        public var account: PaperAccount
        public var series: [PaperReturns.EquityPoint]
        public var periods: [PaperReturns.PeriodReturns]
    }

    public static func history(account: PaperAccount, series: [PaperReturns.EquityPoint]) -> History {
        History(account: account, series: series,
                periods: PaperPeriod.allCases.compactMap { PaperReturns.returns(for: $0, series: series) })
    }

    /// One line of the leaderboard.
    public struct Standing: Sendable, Hashable {
        /// 1 for the best; accounts with equal returns share a rank (1, 1, 3).
        public var rank: Int
        public var account: String
        public var currency: String
        public var equity: ExactDecimal
        public var startingCash: ExactDecimal
        /// `(equity - startingCash) / startingCash`, in the account's own currency.
        public var returnSinceStart: Double
        /// The equity in the leaderboard's currency; nil when no rate is known ("not convertible").
        public var convertedEquity: ExactDecimal?
        /// The rate used (nil for the leaderboard's own currency or when not convertible).
        public var rate: ExchangeRate?
    }

    /// Ranks `statements` by return since start (a return is a ratio, the same in any currency),
    /// best first. Equal returns (to 10^-12) share a rank and are ordered by equity converted to
    /// `currency` (largest first; not convertible last), then by name.
    public static func leaderboard(_ entries: [(statement: Statement, rate: ExchangeRate?)], currency: String)
        -> [Standing] {
        var standings = entries.map { entry -> Standing in
            let statement = entry.statement
            let own = statement.account.currency == currency
            let converted: ExactDecimal? = own ? statement.equity
                : entry.rate.flatMap { statement.equity.multiplied(by: $0.rate) }
            return Standing(rank: 0, account: statement.account.name, currency: statement.account.currency,
                            equity: statement.equity, startingCash: statement.account.startingCash,
                            returnSinceStart: statement.returnSinceStart,
                            convertedEquity: converted, rate: own ? nil : entry.rate)
        }
        func tied(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-12 }
        standings.sort { lhs, rhs in
            if !tied(lhs.returnSinceStart, rhs.returnSinceStart) { return lhs.returnSinceStart > rhs.returnSinceStart }
            switch (lhs.convertedEquity, rhs.convertedEquity) {
            case let (l?, r?) where l != r: return l > r
            case (_?, nil): return true
            case (nil, _?): return false
            default: return lhs.account < rhs.account
            }
        }
        for index in standings.indices {
            if index > 0, tied(standings[index].returnSinceStart, standings[index - 1].returnSinceStart) {
                standings[index].rank = standings[index - 1].rank
            } else {
                standings[index].rank = index + 1
            }
        }
        return standings
    }

    /// The leaderboard's currency when none is asked for: the currency most accounts use (the
    /// first in alphabetical order on a tie); `USD` when there are no accounts.
    public static func defaultCurrency(of accounts: [PaperAccount]) -> String {
        var counts: [String: Int] = [:]
        for account in accounts { counts[account.currency, default: 0] += 1 }
        return counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.first?.key ?? "USD"
    }
}
