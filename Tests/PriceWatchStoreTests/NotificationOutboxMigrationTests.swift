import Foundation
import PriceWatchCore
import PriceWatchStore
import Testing

/// A state file written by the previous schema (v2: the outbox held alerts only) migrates to
/// the outbox of any notification kind: every row is kept, in order, and reads as an alert.
@Suite struct NotificationOutboxMigrationTests {
    /// The schema v1 and v2 as released, and GRDB's record of them: a file of that version.
    static let v2Schema = """
        CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
        INSERT INTO grdb_migrations (identifier) VALUES ('v1'), ('v2');

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

        CREATE INDEX delivery_by_sink ON delivery (status, sink, next_attempt_at, created_at);
        CREATE INDEX alert_by_created_at ON alert (created_at);

        """

    /// Two alerts as the previous version stored them: a1 pending for one sink and delivered
    /// to the other, a2 dead.
    static func v2File(in directory: TemporaryDirectory) throws -> String {
        let path = directory.file("pricewatch.db")
        let raw = RawDatabase(path: path)
        try raw.execute(v2Schema)
        let time = Fixtures.time(0).milliseconds
        try raw.execute("""
            INSERT INTO alert (id, rule, symbol, provider, condition, price, currency, time, base, change, direction, message, created_at)
            VALUES ('a1', 'aapl-200', 'AAPL', 'yahoo', 'fall 3% from previous close', 313500000, 'USD', \(time), 330000000,
                    -500000000, 'down', 'AAPL at 3.135 (rule aapl-200)', \(time)),
                   ('a2', 'aapl-200', 'AAPL', 'yahoo', 'fall 3% from previous close', 313500000, 'USD', \(time + 1000), 330000000,
                    -500000000, 'down', 'AAPL at 3.135 (rule aapl-200)', \(time + 1000));
            INSERT INTO delivery (alert_id, sink, status, attempts, created_at, next_attempt_at, delivered_at, last_error)
            VALUES ('a1', 'webhook/ops', 'pending', 2, \(time), \(time + 60_000), NULL, 'HTTP 503'),
                   ('a1', 'stdout/console', 'delivered', 1, \(time), NULL, \(time + 5), NULL),
                   ('a2', 'webhook/ops', 'dead', 9, \(time + 1000), NULL, NULL, 'HTTP 404');
            """)
        return path
    }

    @Test func aVersion2FileMigratesAndEveryRowReadsAsAnAlert() async throws {
        let directory = try TemporaryDirectory()
        let path = try Self.v2File(in: directory)
        // `pricewatch alerts` reads a file the daemon has not migrated yet, as it is.
        let reader = try SQLiteAlertStore.openReadOnly(path: path)
        #expect(try await reader.alerts(since: nil).map { $0.deliveries.map(\.sink) } == [["webhook/ops", "stdout/console"], ["webhook/ops"]])
        try reader.close()

        let store = try SQLiteAlertStore.open(path: path)
        let raw = RawDatabase(path: path)
        #expect(try raw.migrations() == ["alert-series", "calendar-sources", "candles", "company-events", "news-ledger", "paper-ledger", "portfolio-values", "quiet-hold", "silences", "v1", "v2", "v3", "v4"])
        #expect(try raw.strings("SELECT id || ' ' || kind || ' ' || coalesce(body, 'NULL') FROM notification ORDER BY rowid")
            == ["a1 alert NULL", "a2 alert NULL"])
        let a1 = try Fixtures.alert(id: "a1")
        let records = try await store.alerts(since: nil)
        #expect(records.map(\.alert.id) == ["a1", "a2"])
        #expect(records.first?.alert == a1)
        #expect(records.map { $0.deliveries.map(\.status) } == [[.pending, .delivered], [.dead]], "rows keep their order and state")
        #expect(records.first?.deliveries.first?.lastError == "HTTP 503")

        let due = try await store.pendingDeliveries(dueBy: Fixtures.time(60), limit: 10)
        #expect(due.map(\.notification) == [OutgoingNotification(a1)])
        #expect(due.first?.attempts == 2)
        try await store.recordAttempts([DeliveryOutcome(notificationID: "a1", sink: "webhook/ops", at: Fixtures.time(61), result: .delivered)])
        #expect(try await store.pendingDeliveryCount() == 0)

        // Pruning an alert takes its notification row and deliveries with it.
        #expect(try await store.pruneAlerts(before: Fixtures.time(100)) == 2)
        #expect(try raw.integer("SELECT count(*) FROM notification") == 0)
        #expect(try raw.integer("SELECT count(*) FROM delivery") == 0)
        #expect(try raw.strings("PRAGMA foreign_key_check").isEmpty)
    }

    @Test func otherKindsAreQueuedOnceReadBackAndPruned() async throws {
        let store = try SQLiteAlertStore.inMemory()
        let message = NotificationMessage(title: "Morning digest", text: "AAPL 226.78", html: "<p>AAPL</p>",
                                          attachments: [NotificationAttachment(filename: "a.csv", contentType: "text/csv", bytes: [1, 2, 255])])
        let digest = OutgoingNotification(id: "d1", kind: .digest, time: Fixtures.time(0), content: .message(message))
        let test = OutgoingNotification(id: "t1", kind: .test, time: Fixtures.time(1), content: .alert(try Fixtures.alert(id: "t1")))
        try await store.enqueue(digest, sinks: ["webhook/ops", "email/me"], now: Fixtures.time(0))
        try await store.enqueue(digest, sinks: ["webhook/ops"], now: Fixtures.time(5))   // again: nothing added
        try await store.enqueue(test, sinks: ["webhook/ops"], now: Fixtures.time(1))
        let due = try await store.pendingDeliveries(dueBy: Fixtures.time(10), limit: 10)
        #expect(due.map { "\($0.notification.id) \($0.sink)" } == ["d1 webhook/ops", "d1 email/me", "t1 webhook/ops"])
        #expect(due.first?.notification == digest)
        #expect(due.last?.notification == test)
        #expect(try await store.alerts(since: nil).isEmpty, "only alerts are in the alert log")

        try await store.recordAttempts(due.map { DeliveryOutcome(notificationID: $0.notification.id, sink: $0.sink, at: Fixtures.time(11), result: .delivered) })
        #expect(try await store.pruneNotifications(before: Fixtures.time(1)) == 1, "d1 queued before the cutoff goes; t1 stays")
        #expect(try await store.pruneNotifications(before: Fixtures.time(100)) == 1)
        #expect(try await store.counts().deliveredDeliveries == 0)
    }
}
