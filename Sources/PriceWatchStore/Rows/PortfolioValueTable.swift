import GRDB
import PriceWatchCore

/// The `portfolio_value` table: each portfolio's value per UTC day.
enum PortfolioValueTable {
    /// Inserts `point`, or replaces the point of its portfolio and day.
    static func upsert(_ point: PortfolioValuePoint, in db: Database) throws {
        try db.execute(sql: """
            INSERT INTO portfolio_value (portfolio, day, time, currency, value, cost) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (portfolio, day) DO UPDATE SET
                time = excluded.time, currency = excluded.currency, value = excluded.value, cost = excluded.cost
            """, arguments: [point.portfolio, point.day, point.time.milliseconds, point.currency, point.value.scaled, point.cost.scaled])
    }

    /// `portfolio`'s points valued from `since` on, oldest first.
    static func points(portfolio: String, since: Timestamp, in db: Database) throws -> [PortfolioValuePoint] {
        let rows = try Row.fetchCursor(db, sql: """
            SELECT day, time, currency, value, cost FROM portfolio_value
            WHERE portfolio = ? AND time >= ? ORDER BY day
            """, arguments: [portfolio, since.milliseconds])
        var points: [PortfolioValuePoint] = []
        while let row = try rows.next() {
            points.append(PortfolioValuePoint(portfolio: portfolio, day: try row.decode(String.self, atIndex: 0),
                                              time: Timestamp(milliseconds: try row.decode(Int64.self, atIndex: 1)),
                                              currency: try row.decode(String.self, atIndex: 2),
                                              value: ExactDecimal(scaled: try row.decode(Int64.self, atIndex: 3)),
                                              cost: ExactDecimal(scaled: try row.decode(Int64.self, atIndex: 4))))
        }
        return points
    }
}
