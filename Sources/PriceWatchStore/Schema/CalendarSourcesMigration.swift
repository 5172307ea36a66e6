import GRDB

/// The schema migration `calendar-sources` (registered in ``StoreMigrations``).
///
/// - `company_event` gains a dividend's `amount` (a scaled integer, ``ExactDecimal/scaled``)
///   and `currency`, and a split's `split_ratio` (`2:1`).
/// - `calendar_source_read` replaces `calendar_read`: when each source's calendar of each
///   symbol was last read, and last failed to be read after that (milliseconds). The old
///   per-symbol times are not carried over: each calendar is read once more, at the next look.
enum CalendarSourcesMigration {
    static func migrate(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE company_event ADD COLUMN amount INTEGER;
            ALTER TABLE company_event ADD COLUMN currency TEXT;
            ALTER TABLE company_event ADD COLUMN split_ratio TEXT;
            DROP TABLE calendar_read;
            CREATE TABLE calendar_source_read (
                symbol    TEXT    NOT NULL,
                source    TEXT    NOT NULL,
                read_at   INTEGER,
                failed_at INTEGER,
                PRIMARY KEY (symbol, source)
            ) WITHOUT ROWID;
            """)
    }
}
