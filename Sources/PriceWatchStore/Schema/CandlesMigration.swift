import GRDB

extension StoreMigrations {
    /// Migration `candles`: the price history the daemon records from its polls, and candles
    /// backfilled from a provider's chart endpoint.
    ///
    /// - `candle`: one row per `(symbol, interval, time)`, `WITHOUT ROWID`, so one symbol's
    ///   candles of one interval are one contiguous range of the primary key. `interval` is a
    ///   `CandleInterval` (`1m`, `5m`, `1h`, `1d`); `time` the candle's start in milliseconds
    ///   since the epoch; `open`, `high`, `low`, `close` and `volume` are `ExactDecimal.scaled`
    ///   integers (CHECKs keep them integers and the prices positive). `last_quote_at` is the
    ///   time of the newest quote folded into a recorded candle (NULL for a backfilled one);
    ///   `source` is `polled` or `backfilled`.
    static func candles(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE candle (
                symbol        TEXT    NOT NULL CHECK (symbol <> ''),
                interval      TEXT    NOT NULL CHECK (interval IN ('1m', '5m', '1h', '1d')),
                time          INTEGER NOT NULL,
                open          INTEGER NOT NULL CHECK (typeof(open) = 'integer' AND open > 0),
                high          INTEGER NOT NULL CHECK (typeof(high) = 'integer' AND high > 0),
                low           INTEGER NOT NULL CHECK (typeof(low) = 'integer' AND low > 0),
                close         INTEGER NOT NULL CHECK (typeof(close) = 'integer' AND close > 0),
                volume        INTEGER CHECK (typeof(volume) IN ('integer', 'null')),
                last_quote_at INTEGER,
                source        TEXT    NOT NULL CHECK (source IN ('polled', 'backfilled')),
                PRIMARY KEY (symbol, interval, time)
            ) WITHOUT ROWID;
            """)
    }
}
