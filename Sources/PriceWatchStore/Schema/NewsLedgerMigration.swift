import GRDB

/// The schema migration `news-ledger` (registered in ``StoreMigrations``).
///
/// - `news_rule_start`: when each news rule started watching (milliseconds), one row per rule.
/// - `news_seen`: each story a symbol's feed listed, by its guid and link, with when it was
///   first seen and published (milliseconds). A story is the same when either its guid or its
///   link is, hence the second index.
enum NewsLedgerMigration {
    static func migrate(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE news_rule_start (
                rule_id TEXT    NOT NULL PRIMARY KEY CHECK (rule_id <> ''),
                since   INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE TABLE news_seen (
                symbol       TEXT    NOT NULL,
                guid         TEXT    NOT NULL,
                link         TEXT    NOT NULL,
                published_at INTEGER NOT NULL,
                seen_at      INTEGER NOT NULL,
                PRIMARY KEY (symbol, guid)
            ) WITHOUT ROWID;
            CREATE INDEX news_seen_link ON news_seen (symbol, link);
            CREATE INDEX news_seen_time ON news_seen (seen_at);
            """)
    }
}
