import GRDB

/// The schema of the state database, as GRDB named migrations applied in order (`v1`, ...).
///
/// A released migration never changes; a new schema is a new migration appended here. GRDB
/// records applied migrations in `grdb_migrations`; a file that records one this list does not
/// know was written by a newer pricewatch and is refused before anything is written to it.
///
/// Schema `v1`:
///
/// - `quote`: every accepted quote. Primary key `(provider, symbol, time)`, `WITHOUT ROWID`, so
///   a symbol's history is one contiguous range of the primary key and a replayed quote
///   (same key) is ignored. `time` is the provider's quote time in milliseconds since the epoch;
///   `price` and `previous_close` are `ExactDecimal.scaled` (the value times 10^8) and a CHECK
///   keeps them integers: exact decimals are never stored as REAL.
/// - `rule_state`: one row per `(rule, symbol)`, `WITHOUT ROWID`, with the rule fingerprint the
///   state was computed under, `phase` (`armed`/`fired`), `last_alert_at` (quote time, ms),
///   `alert_count` and `side` (`up`/`down`/NULL).
/// - `alert`: the alert log, keyed by the stable alert id (non-empty). Decimal columns as in
///   `quote`; `time` is the quote time, `created_at` the wall-clock time of the commit. A rowid
///   table: the rowid is the insertion order, the tie-break after `time`. Index on `time`.
/// - `delivery`: the outbox, one row per `(alert_id, sink)` with `status`
///   (`pending`/`delivered`/`dead`), `attempts`, `created_at`, `next_attempt_at` (pending only),
///   `delivered_at` and `last_error`; all times wall clock, ms. `alert_id` references
///   `alert(id)`. The index `delivery_due (status, next_attempt_at, created_at)` serves the
///   dispatcher's "what is due" query in its order; the rowid (insertion order) breaks ties.
///
/// Schema `v2` adds two indexes and no data: `delivery_by_sink (status, sink, next_attempt_at,
/// created_at)` for the dispatcher's per-sink "what is due" query and the per-sink summary,
/// and `alert_by_created_at (created_at)` for pruning the alert log.
///
/// Schema `v3` adds `job_run`: the last run of each scheduled job, one row per `job` name
/// (`WITHOUT ROWID`), with `due` (the due time it accounts for, wall clock ms), `outcome`
/// (`registered`/`succeeded`/`failed`/`skipped`), `finished_at` and `error`.
///
/// Schema `v4` makes the outbox hold notifications of any kind:
///
/// - `notification`: one row per queued notification, keyed by its stable id, with `kind`
///   (`alert`, `digest`, …), `time` (what it is about), `created_at` (queued, wall clock ms)
///   and `body`: NULL for an alert (its fields are in `alert`, same id), else the content as
///   JSON (a `NotificationMessage`, or the alert of an alert-shaped kind such as `test`).
///   Every existing alert gets a row of kind `alert`.
/// - `delivery` is rebuilt with `notification_id` (was `alert_id`) referencing
///   `notification(id)` `ON DELETE CASCADE`; rows keep their order; same indexes.
/// - the trigger `alert_deletes_notification` deletes an alert's notification row (and so its
///   deliveries) with the alert.
///
/// The migration `silences` (operator silences, the delivery status `silenced`) is described
/// in `SilencesMigration`; `alert-series` (a technical rule's series on its alerts) in
/// `AlertSeriesMigration`.
///
/// The SQL needs SQLite 3.24 or later (`ON CONFLICT ... DO NOTHING/UPDATE`).
enum StoreMigrations {
    /// Every migration, in order.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        // No table is rebuilt, so foreign keys can stay on while migrating.
        migrator.registerMigration("v1", foreignKeyChecks: .immediate, migrate: v1)
        migrator.registerMigration("v2", foreignKeyChecks: .immediate, migrate: v2)
        migrator.registerMigration("v3", foreignKeyChecks: .immediate, migrate: v3)
        // Rebuilds `delivery` (its foreign key changes): checked once, at the end.
        migrator.registerMigration("v4", foreignKeyChecks: .deferred, migrate: v4)
        migrator.registerMigration("candles", foreignKeyChecks: .immediate, migrate: candles)
        migrator.registerMigration("paper-ledger", foreignKeyChecks: .immediate, migrate: PaperLedgerMigration.migrate)
        // Rebuilds `delivery` (its status CHECK gains `silenced`): checked once, at the end.
        migrator.registerMigration("silences", foreignKeyChecks: .deferred, migrate: SilencesMigration.migrate)
        migrator.registerMigration("quiet-hold", foreignKeyChecks: .immediate, migrate: QuietHoldMigration.migrate)
        migrator.registerMigration("alert-series", foreignKeyChecks: .immediate, migrate: AlertSeriesMigration.migrate)
        migrator.registerMigration("portfolio-values", foreignKeyChecks: .immediate, migrate: PortfolioValueMigration.migrate)
        migrator.registerMigration("news-ledger", foreignKeyChecks: .immediate, migrate: NewsLedgerMigration.migrate)
        migrator.registerMigration("company-events", foreignKeyChecks: .immediate, migrate: CompanyEventsMigration.migrate)
        migrator.registerMigration("calendar-sources", foreignKeyChecks: .immediate, migrate: CalendarSourcesMigration.migrate)
        return migrator
    }()

    /// The identifiers this version knows.
    static var known: [String] { migrator.migrations }

    /// Applied migrations this version does not know, in name order (empty for a database this
    /// version can use, including a new one).
    static func unknownMigrations(in db: Database) throws -> [String] {
        let known = Set(migrator.migrations)
        return try migrator.appliedIdentifiers(db).filter { !known.contains($0) }.sorted()
    }

    private static func v1(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE quote (
                provider       TEXT    NOT NULL,
                symbol         TEXT    NOT NULL,
                time           INTEGER NOT NULL,
                price          INTEGER NOT NULL CHECK (typeof(price) = 'integer'),
                previous_close INTEGER CHECK (typeof(previous_close) IN ('integer', 'null')),
                currency       TEXT,
                exchange       TEXT,
                market_state   TEXT,
                PRIMARY KEY (provider, symbol, time)
            ) WITHOUT ROWID;

            CREATE TABLE rule_state (
                rule          TEXT    NOT NULL,
                symbol        TEXT    NOT NULL,
                fingerprint   TEXT    NOT NULL,
                phase         TEXT    NOT NULL CHECK (phase IN ('armed', 'fired')),
                last_alert_at INTEGER,
                alert_count   INTEGER NOT NULL CHECK (alert_count >= 0),
                side          TEXT    CHECK (side IN ('up', 'down')),
                PRIMARY KEY (rule, symbol)
            ) WITHOUT ROWID;

            CREATE TABLE alert (
                id         TEXT    NOT NULL PRIMARY KEY CHECK (id <> ''),
                rule       TEXT    NOT NULL,
                symbol     TEXT    NOT NULL,
                provider   TEXT,
                condition  TEXT    NOT NULL,
                price      INTEGER NOT NULL CHECK (typeof(price) = 'integer'),
                currency   TEXT,
                time       INTEGER NOT NULL,
                base       INTEGER CHECK (typeof(base) IN ('integer', 'null')),
                change     INTEGER CHECK (typeof(change) IN ('integer', 'null')),
                direction  TEXT,
                message    TEXT    NOT NULL,
                created_at INTEGER NOT NULL
            );
            CREATE INDEX alert_by_time ON alert (time);

            CREATE TABLE delivery (
                alert_id        TEXT    NOT NULL REFERENCES alert (id) ON DELETE CASCADE,
                sink            TEXT    NOT NULL CHECK (sink <> ''),
                status          TEXT    NOT NULL CHECK (status IN ('pending', 'delivered', 'dead')),
                attempts        INTEGER NOT NULL CHECK (attempts >= 0),
                created_at      INTEGER NOT NULL,
                next_attempt_at INTEGER,
                delivered_at    INTEGER,
                last_error      TEXT,
                PRIMARY KEY (alert_id, sink)
            );
            CREATE INDEX delivery_due ON delivery (status, next_attempt_at, created_at);
            """)
    }

    private static func v2(_ db: Database) throws {
        try db.execute(sql: """
            CREATE INDEX delivery_by_sink ON delivery (status, sink, next_attempt_at, created_at);
            CREATE INDEX alert_by_created_at ON alert (created_at);
            """)
    }

    private static func v3(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE job_run (
                job         TEXT    NOT NULL PRIMARY KEY CHECK (job <> ''),
                due         INTEGER NOT NULL,
                outcome     TEXT    NOT NULL CHECK (outcome IN ('registered', 'succeeded', 'failed', 'skipped')),
                finished_at INTEGER,
                error       TEXT
            ) WITHOUT ROWID;
            """)
    }

    private static func v4(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE notification (
                id         TEXT    NOT NULL PRIMARY KEY CHECK (id <> ''),
                kind       TEXT    NOT NULL CHECK (kind <> ''),
                time       INTEGER NOT NULL,
                created_at INTEGER NOT NULL,
                body       TEXT
            );
            CREATE INDEX notification_by_created_at ON notification (created_at);
            INSERT INTO notification (id, kind, time, created_at, body)
                SELECT id, 'alert', time, created_at, NULL FROM alert ORDER BY rowid;

            CREATE TABLE delivery_v4 (
                notification_id TEXT    NOT NULL REFERENCES notification (id) ON DELETE CASCADE,
                sink            TEXT    NOT NULL CHECK (sink <> ''),
                status          TEXT    NOT NULL CHECK (status IN ('pending', 'delivered', 'dead')),
                attempts        INTEGER NOT NULL CHECK (attempts >= 0),
                created_at      INTEGER NOT NULL,
                next_attempt_at INTEGER,
                delivered_at    INTEGER,
                last_error      TEXT,
                PRIMARY KEY (notification_id, sink)
            );
            INSERT INTO delivery_v4 (notification_id, sink, status, attempts, created_at, next_attempt_at,
                                     delivered_at, last_error)
                SELECT alert_id, sink, status, attempts, created_at, next_attempt_at, delivered_at, last_error
                FROM delivery ORDER BY rowid;
            DROP TABLE delivery;
            ALTER TABLE delivery_v4 RENAME TO delivery;
            CREATE INDEX delivery_due ON delivery (status, next_attempt_at, created_at);
            CREATE INDEX delivery_by_sink ON delivery (status, sink, next_attempt_at, created_at);

            CREATE TRIGGER alert_deletes_notification AFTER DELETE ON alert
            BEGIN
                DELETE FROM notification WHERE id = old.id;
            END;
            """)
    }
}
