import GRDB

/// The schema migration `silences` (registered in ``StoreMigrations``).
///
/// - `silence`: one row per operator silence, keyed by its id, with exactly one of `rule` and
///   `symbol` (what it matches), `starts_at` and `ends_at` (wall clock ms, `ends_at` after
///   `starts_at`), `comment` and `created_at`. Expiring a silence sets `ends_at`.
/// - `silence_generation`: a single row whose `value` triggers increment on every insert,
///   update or delete of `silence`; the daemon reads it to know when to read silences again.
/// - `delivery` is rebuilt to allow the status `silenced` (a delivery never attempted because
///   a silence covered its alert; `last_error` then says `silenced by <id>`); rows keep their
///   order; same indexes.
enum SilencesMigration {
    static func migrate(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE silence (
                id         TEXT    NOT NULL PRIMARY KEY CHECK (id <> ''),
                rule       TEXT    CHECK (rule <> ''),
                symbol     TEXT    CHECK (symbol <> ''),
                starts_at  INTEGER NOT NULL,
                ends_at    INTEGER NOT NULL,
                comment    TEXT    NOT NULL DEFAULT '',
                created_at INTEGER NOT NULL,
                CHECK ((rule IS NULL) <> (symbol IS NULL))
            );
            CREATE INDEX silence_by_ends_at ON silence (ends_at);

            CREATE TABLE silence_generation (
                id    INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
                value INTEGER NOT NULL
            );
            INSERT INTO silence_generation (id, value) VALUES (1, 0);
            CREATE TRIGGER silence_insert_generation AFTER INSERT ON silence
            BEGIN UPDATE silence_generation SET value = value + 1 WHERE id = 1; END;
            CREATE TRIGGER silence_update_generation AFTER UPDATE ON silence
            BEGIN UPDATE silence_generation SET value = value + 1 WHERE id = 1; END;
            CREATE TRIGGER silence_delete_generation AFTER DELETE ON silence
            BEGIN UPDATE silence_generation SET value = value + 1 WHERE id = 1; END;

            CREATE TABLE delivery_silences (
                notification_id TEXT    NOT NULL REFERENCES notification (id) ON DELETE CASCADE,
                sink            TEXT    NOT NULL CHECK (sink <> ''),
                status          TEXT    NOT NULL CHECK (status IN ('pending', 'delivered', 'dead', 'silenced')),
                attempts        INTEGER NOT NULL CHECK (attempts >= 0),
                created_at      INTEGER NOT NULL,
                next_attempt_at INTEGER,
                delivered_at    INTEGER,
                last_error      TEXT,
                PRIMARY KEY (notification_id, sink)
            );
            INSERT INTO delivery_silences (notification_id, sink, status, attempts, created_at, next_attempt_at,
                                           delivered_at, last_error)
                SELECT notification_id, sink, status, attempts, created_at, next_attempt_at, delivered_at, last_error
                FROM delivery ORDER BY rowid;
            DROP TABLE delivery;
            ALTER TABLE delivery_silences RENAME TO delivery;
            CREATE INDEX delivery_due ON delivery (status, next_attempt_at, created_at);
            CREATE INDEX delivery_by_sink ON delivery (status, sink, next_attempt_at, created_at);
            """)
    }
}
