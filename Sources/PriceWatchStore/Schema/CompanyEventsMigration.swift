import GRDB

/// The schema migration `company-events` (registered in ``StoreMigrations``).
///
/// - `company_event`: each dated event of a company's calendar by its id (symbol, kind, date);
///   dates as `YYYY-MM-DD`, the EPS estimate as a scaled integer (``ExactDecimal/scaled``), the
///   earnings' timing as its source code (`bmo`, `amc`, `dmh`).
/// - `calendar_read`: when each symbol's calendar was last read (milliseconds).
/// - `event_reminder`: each reminder sent, once per rule and event.
enum CompanyEventsMigration {
    static func migrate(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE company_event (
                id         TEXT    NOT NULL PRIMARY KEY,
                symbol     TEXT    NOT NULL,
                kind       TEXT    NOT NULL,
                date       TEXT    NOT NULL CHECK (length(date) = 10),
                last_date  TEXT,
                estimate   INTEGER,
                source     TEXT    NOT NULL,
                moved_from TEXT,
                timing     TEXT
            ) WITHOUT ROWID;
            CREATE INDEX company_event_by_symbol ON company_event (symbol, date);
            CREATE TABLE calendar_read (
                symbol  TEXT    NOT NULL PRIMARY KEY,
                read_at INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE TABLE event_reminder (
                rule_id  TEXT    NOT NULL,
                event_id TEXT    NOT NULL,
                sent_at  INTEGER NOT NULL,
                PRIMARY KEY (rule_id, event_id)
            ) WITHOUT ROWID;
            """)
    }
}
