import GRDB

/// The schema migration `portfolio-values` (registered in ``StoreMigrations``).
///
/// - `portfolio_value`: a portfolio's value and cost in its home currency, one row per UTC day
///   (`YYYY-MM-DD`), replaced by each later valuation of that day; amounts are scaled integers
///   (``ExactDecimal/scaled``), `time` the valuation's in milliseconds.
enum PortfolioValueMigration {
    static func migrate(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE portfolio_value (
                portfolio TEXT    NOT NULL CHECK (portfolio <> ''),
                day       TEXT    NOT NULL CHECK (length(day) = 10),
                time      INTEGER NOT NULL,
                currency  TEXT    NOT NULL,
                value     INTEGER NOT NULL CHECK (typeof(value) = 'integer'),
                cost      INTEGER NOT NULL CHECK (typeof(cost) = 'integer'),
                PRIMARY KEY (portfolio, day)
            ) WITHOUT ROWID
            """)
    }
}
