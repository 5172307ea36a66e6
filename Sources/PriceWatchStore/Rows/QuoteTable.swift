import GRDB
import PriceWatchCore

/// The `quote` table: quote history per provider and symbol.
enum QuoteTable {
    /// Inserts quotes of one provider; a quote whose `(provider, symbol, time)` is already
    /// stored is left as it is (a replayed poll stores nothing twice).
    static func insert(_ quotes: [Quote], provider: String, in db: Database) throws {
        guard !quotes.isEmpty else { return }
        try insertion.run(quotes, in: db) { quote, row in
            row.bind(provider)
            row.bind(quote.symbol)
            row.bind(quote.time.milliseconds)
            row.bind(quote.price.scaled)
            row.bind(quote.previousClose?.scaled)
            row.bind(quote.currency)
            row.bind(quote.exchange)
            row.bind(quote.marketState)
        }
    }

    private static let insertion = BatchedInsert(
        head: "INSERT INTO quote (provider, symbol, time, price, previous_close, currency, exchange, market_state) VALUES",
        row: "(?, ?, ?, ?, ?, ?, ?, ?)",
        tail: "ON CONFLICT (provider, symbol, time) DO NOTHING")

    /// Every stored quote of one provider and symbol from the newest one before `since` (the
    /// anchor) on, oldest first; when none is older than `since`, from `since` on.
    ///
    /// The newest quote overall is always part of the result: it is either at or after `since`,
    /// or it is itself the anchor.
    static func history(provider: String, symbol: String, since: Timestamp, in db: Database) throws -> [HistoryPoint] {
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: """
                SELECT time, price FROM quote
                WHERE provider = ? AND symbol = ?
                  AND time >= coalesce(
                      (SELECT max(time) FROM quote WHERE provider = ? AND symbol = ? AND time < ?), ?)
                ORDER BY time
                """),
            arguments: [provider, symbol, provider, symbol, since.milliseconds, since.milliseconds])
        var points: [HistoryPoint] = []
        while let row = try rows.next() {
            points.append(HistoryPoint(
                time: Timestamp(milliseconds: try row.decode(Int64.self, atIndex: 0)),
                price: ExactDecimal(scaled: try row.decode(Int64.self, atIndex: 1))))
        }
        return points
    }

    /// The stored quotes of one provider and symbol, oldest first (for the read helpers).
    static func quotes(provider: String, symbol: String, in db: Database) throws -> [Quote] {
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: """
                SELECT symbol, time, price, previous_close, currency, exchange, market_state FROM quote
                WHERE provider = ? AND symbol = ?
                ORDER BY time
                """),
            arguments: [provider, symbol])
        var quotes: [Quote] = []
        while let row = try rows.next() {
            quotes.append(Quote(
                symbol: try row.decode(String.self, atIndex: 0),
                price: ExactDecimal(scaled: try row.decode(Int64.self, atIndex: 2)),
                time: Timestamp(milliseconds: try row.decode(Int64.self, atIndex: 1)),
                previousClose: try row.decode(Int64?.self, atIndex: 3).map(ExactDecimal.init(scaled:)),
                currency: try row.decode(String?.self, atIndex: 4),
                exchange: try row.decode(String?.self, atIndex: 5),
                marketState: try row.decode(String?.self, atIndex: 6)))
        }
        return quotes
    }

    /// Deletes quotes older than `cutoff` except, per provider and symbol, the newest one at or
    /// before it. Returns how many went.
    static func prune(before cutoff: Timestamp, in db: Database) throws -> Int {
        // One series at a time, each a primary-key range: the cost follows the number of series
        // and of deleted rows, not the size of the table (a single DELETE would visit every row
        // while holding the write lock). The next series is found by seeking past the last one.
        let nextSeries = try db.cachedStatement(sql: """
            SELECT provider, symbol FROM quote WHERE (provider, symbol) > (?, ?)
            ORDER BY provider, symbol LIMIT 1
            """)
        let deleteOld = try db.cachedStatement(sql: """
            DELETE FROM quote
            WHERE provider = :provider AND symbol = :symbol
              AND time < (SELECT max(time) FROM quote
                          WHERE provider = :provider AND symbol = :symbol AND time <= :cutoff)
            """)
        var deleted = 0
        var series = try Row.fetchOne(db, sql: "SELECT provider, symbol FROM quote ORDER BY provider, symbol LIMIT 1")
        while let current = series {
            let provider = try current.decode(String.self, atIndex: 0)
            let symbol = try current.decode(String.self, atIndex: 1)
            try deleteOld.execute(arguments: ["provider": provider, "symbol": symbol, "cutoff": cutoff.milliseconds])
            deleted += db.changesCount
            series = try Row.fetchOne(nextSeries, arguments: [provider, symbol])
        }
        return deleted
    }

    /// How many quotes are stored.
    static func count(in db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM quote") ?? 0
    }
}
