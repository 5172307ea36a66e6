import GRDB
import PriceWatchCore

/// The `candle` table: recorded and backfilled price history.
enum CandleTable {
    /// Folds each quote into its one-minute candle (see `CandleStore`), through one statement
    /// compiled once per connection.
    static func record(_ quotes: [Quote], in db: Database) throws {
        guard !quotes.isEmpty else { return }
        try recordInsert.run(quotes, in: db) { quote, row in
            let price = quote.price.scaled
            row.bind(quote.symbol)
            row.bind(CandleBuilder.start(of: quote.time, interval: .oneMinute).milliseconds)
            for _ in 0..<4 { row.bind(price) }
            row.bind(quote.time.milliseconds)
        }
    }

    private static let recordInsert = BatchedInsert(
        head: "INSERT INTO candle (symbol, interval, time, open, high, low, close, volume, last_quote_at, source) VALUES",
        row: "(?, '1m', ?, ?, ?, ?, ?, NULL, ?, 'polled')",
        tail: """
            ON CONFLICT (symbol, interval, time) DO UPDATE SET
                high = max(high, excluded.high),
                low = min(low, excluded.low),
                close = CASE WHEN excluded.last_quote_at >= coalesce(last_quote_at, excluded.last_quote_at)
                             THEN excluded.close ELSE close END,
                last_quote_at = max(coalesce(last_quote_at, excluded.last_quote_at), excluded.last_quote_at)
            """)

    /// Stores each backfilled candle unless one with its key exists.
    static func insertBackfilled(_ candles: [Candle], symbol: String, in db: Database) throws {
        guard !candles.isEmpty else { return }
        let statement = try db.cachedStatement(sql: """
            INSERT INTO candle (symbol, interval, time, open, high, low, close, volume, last_quote_at, source)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, 'backfilled')
            ON CONFLICT (symbol, interval, time) DO NOTHING
            """)
        for candle in candles {
            try statement.execute(arguments: [symbol, candle.interval.rawValue, candle.time.milliseconds, candle.open.scaled,
                                              candle.high.scaled, candle.low.scaled, candle.close.scaled, candle.volume?.scaled])
        }
    }

    /// The stored candles of `symbol` of the given intervals whose start lies in `from ..< to`,
    /// oldest first. A row that does not make a consistent candle is skipped.
    static func candles(symbol: String, intervals: [CandleInterval], from: Timestamp, to: Timestamp,
                        in db: Database) throws -> [Candle] {
        // A file the daemon of an older version wrote (read-only readers do not migrate it).
        guard !intervals.isEmpty, try db.tableExists("candle") else { return [] }
        let marks = intervals.map { _ in "?" }.joined(separator: ", ")
        var values: [(any DatabaseValueConvertible)?] = [symbol]
        values += intervals.map(\.rawValue)
        values += [from.milliseconds, to.milliseconds]
        let arguments = StatementArguments(values)
        let rows = try Row.fetchCursor(db, sql: """
            SELECT interval, time, open, high, low, close, volume FROM candle
            WHERE symbol = ? AND interval IN (\(marks)) AND time >= ? AND time < ?
            ORDER BY time
            """, arguments: arguments)
        var candles: [Candle] = []
        while let row = try rows.next() {
            guard let intervalText = try row.decode(String?.self, atIndex: 0),
                  let interval = CandleInterval(rawValue: intervalText),
                  let time = try row.decode(Int64?.self, atIndex: 1),
                  let open = try row.decode(Int64?.self, atIndex: 2),
                  let high = try row.decode(Int64?.self, atIndex: 3),
                  let low = try row.decode(Int64?.self, atIndex: 4),
                  let close = try row.decode(Int64?.self, atIndex: 5) else { continue }
            let candle = Candle(time: Timestamp(milliseconds: time), interval: interval, open: ExactDecimal(scaled: open),
                                high: ExactDecimal(scaled: high), low: ExactDecimal(scaled: low),
                                close: ExactDecimal(scaled: close),
                                volume: try row.decode(Int64?.self, atIndex: 6).map(ExactDecimal.init(scaled:)))
            if CandleBuilder.isConsistent(candle) { candles.append(candle) }
        }
        return candles
    }

    /// Deletes candles that start before `cutoff`.
    static func prune(before cutoff: Timestamp, in db: Database) throws -> Int {
        try db.execute(sql: "DELETE FROM candle WHERE time < ?", arguments: [cutoff.milliseconds])
        return db.changesCount
    }
}
