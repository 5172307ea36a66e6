import Foundation
import PriceWatchCore
import PriceWatchStore
import Testing

/// Opening files, migrations, and refusing what this version cannot use.
@Suite struct OpeningTests {
    static let tables = [
        "table alert", "index alert_by_created_at", "index alert_by_time", "trigger alert_deletes_notification", "table calendar_source_read", "table candle",
        "table company_event", "index company_event_by_symbol", "table delivery", "index delivery_by_sink", "index delivery_due", "table event_reminder", "table job_run",
        "table news_rule_start", "table news_seen", "index news_seen_link", "index news_seen_time", "table notification",
        "index notification_by_created_at",
        // The paper-ledger migration's tables and append-only triggers.
        "table paper_account", "trigger paper_account_no_delete", "trigger paper_account_no_update",
        "table paper_order", "trigger paper_order_no_delete", "trigger paper_order_no_update",
        "table paper_outcome", "trigger paper_outcome_no_delete", "trigger paper_outcome_no_update",
        "table paper_posting", "index paper_posting_by_account", "trigger paper_posting_no_delete",
        "trigger paper_posting_no_update",
        "table portfolio_value", "table quote", "table rule_state",
        "table silence", "index silence_by_ends_at", "trigger silence_delete_generation", "table silence_generation",
        "trigger silence_insert_generation", "trigger silence_update_generation",
    ]

    /// The names and kinds of the schema's objects (without GRDB's and SQLite's own).
    static func objects(_ raw: RawDatabase) throws -> [String] {
        try raw.strings("""
            SELECT type || ' ' || name FROM sqlite_master
            WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%' ORDER BY name
            """)
    }

    @Test func openCreatesDirectoriesAndSchema() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("var/lib/pricewatch/pricewatch.db")
        let store = try SQLiteAlertStore.open(path: path)
        #expect(store.path == path)
        #expect(FileManager.default.fileExists(atPath: path))
        let raw = RawDatabase(path: path)
        #expect(try Self.objects(raw) == Self.tables)
        #expect(try raw.migrations() == ["alert-series", "calendar-sources", "candles", "company-events", "news-ledger", "paper-ledger", "portfolio-values", "quiet-hold", "silences", "v1", "v2", "v3", "v4"])
        #expect(try raw.strings("PRAGMA journal_mode") == ["wal"])
        #expect(try await store.counts() == StoreCounts(
            quotes: 0, ruleStates: 0, alerts: 0, pendingDeliveries: 0, deliveredDeliveries: 0, deadDeliveries: 0))
    }

    @Test func inMemoryHasTheSchema() async throws {
        let store = try SQLiteAlertStore.inMemory()
        #expect(store.path == ":memory:")
        try await store.commit(Fixtures.commit(try Fixtures.alert(id: "a1")))
        #expect(try await store.counts().alerts == 1)
    }

    @Test func reopeningIsANoOp() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("pricewatch.db")
        let first = try SQLiteAlertStore.open(path: path)
        try await first.commit(CommitTests.fullCommitForReopen())
        try first.close()
        let raw = RawDatabase(path: path)
        let schema = try raw.schema()
        let migrations = try raw.migrations()

        let second = try SQLiteAlertStore.open(path: path)
        #expect(try raw.schema() == schema)
        #expect(try raw.migrations() == migrations)
        #expect(try await second.counts() == StoreCounts(
            quotes: 2, ruleStates: 1, alerts: 1, pendingDeliveries: 2, deliveredDeliveries: 0, deadDeliveries: 0))
        try second.close()
        try second.close()
    }

    /// A file that records a migration from a newer version is refused with a clear error, and
    /// neither its rows nor its bytes change.
    @Test func databaseFromANewerVersionIsRefusedAndUntouched() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("pricewatch.db")
        let store = try SQLiteAlertStore.open(path: path)
        try await store.commit(CommitTests.fullCommitForReopen())
        try store.close()
        let raw = RawDatabase(path: path)
        try raw.execute("""
            INSERT INTO grdb_migrations (identifier) VALUES ('v2-from-the-future');
            CREATE TABLE future_thing (x INTEGER);
            """)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let schema = try raw.schema()

        let error = #expect(throws: StoreError.self) { try SQLiteAlertStore.open(path: path) }
        #expect(error == .newerVersion(path: path, unknownMigrations: ["v2-from-the-future"]))
        #expect(error?.description == """
            state database \(path): written by a newer version of pricewatch (unknown schema migrations: \
            v2-from-the-future); not opened and left unchanged: upgrade pricewatch or point `state` at another file
            """)

        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(try raw.schema() == schema)
        #expect(try raw.migrations() == ["alert-series", "calendar-sources", "candles", "company-events", "news-ledger", "paper-ledger", "portfolio-values", "quiet-hold", "silences", "v1", "v2", "v2-from-the-future", "v3", "v4"])
        #expect(try raw.integer("SELECT count(*) FROM alert") == 1)
        #expect(try raw.integer("SELECT count(*) FROM delivery") == 2)
    }

    /// Not a database at all: the state is unusable (`corrupted`, exit 65 for the daemon), not
    /// merely unopenable.
    @Test func notADatabaseCannotBeOpened() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("pricewatch.db")
        try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: StoreError.self) { try SQLiteAlertStore.open(path: path) }
        #expect(error?.description.hasPrefix("state database \(path): open: file is not a database") == true, "\(String(describing: error))")
        if case .corrupted = error {} else { Issue.record("expected corrupted, got \(String(describing: error))") }
    }

    @Test func parentThatIsAFileCannotBeOpened() throws {
        let directory = try TemporaryDirectory()
        try Data("x".utf8).write(to: URL(fileURLWithPath: directory.file("state")))
        let path = directory.file("state/pricewatch.db")
        let error = #expect(throws: StoreError.self) { try SQLiteAlertStore.open(path: path) }
        #expect(error == .cannotOpen(path: path, reason: "\(directory.file("state")) exists and is not a directory"))
    }

    @Test func directoryAsDatabaseCannotBeOpened() throws {
        let directory = try TemporaryDirectory()
        let error = #expect(throws: StoreError.self) { try SQLiteAlertStore.open(path: directory.path) }
        #expect(error?.description.hasPrefix("state database \(directory.path): cannot open: ") == true)
    }

    @Test func emptyPathCannotBeOpened() throws {
        let error = #expect(throws: StoreError.self) { try SQLiteAlertStore.open(path: "") }
        #expect(error == .cannotOpen(path: "", reason: "no path given"))
    }

    @Test func closedStoreFailsWithItsPath() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("pricewatch.db")
        let store = try SQLiteAlertStore.open(path: path)
        try store.close()
        let error = await #expect(throws: StoreError.self) { try await store.counts() }
        #expect(error?.description.hasPrefix("state database \(path): counting rows: ") == true)
    }

    @Test func invalidStoredValueIsReportedWithItsPlace() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("pricewatch.db")
        let store = try SQLiteAlertStore.open(path: path)
        try await store.commit(CommitTests.fullCommitForReopen())
        // A hand edit that the CHECK constraints cannot see: they are switched off for it.
        try RawDatabase(path: path).execute("""
            PRAGMA ignore_check_constraints = ON;
            UPDATE rule_state SET phase = 'sleeping';
            """)
        let error = await #expect(throws: StoreError.self) { try await store.ruleStates() }
        #expect(error == .invalidData(path: path, table: "rule_state", column: "phase", value: "sleeping"))
        #expect(error?.description == "state database \(path): invalid value 'sleeping' in rule_state.phase")
    }
}
