import GRDB
import PriceWatchCore

/// The daemon's store: one SQLite file, accessed through GRDB, implementing every role port
/// of the core (``RuleStateStore``, ``QuoteHistoryStore``, ``OutboxStore``, ``AlertLogStore``,
/// ``RetentionStore``, ``JobRunStore``).
///
/// The store owns a GRDB `DatabaseWriter`: a `DatabasePool` in WAL mode for a file (one
/// serialized writer, concurrent readers that never block it), or a `DatabaseQueue` in memory
/// for tests. Every operation goes through GRDB's async `read`/`write`, which run the blocking
/// SQLite calls on GRDB's own dispatch queues and suspend the calling task meanwhile, so no
/// thread of Swift's cooperative pool waits on disk or on a lock. All writes go through the one
/// writer connection, so concurrent commits are serialized, never interleaved.
///
/// Durability: the file runs with `journal_mode = WAL` and `synchronous = NORMAL`. A transaction
/// is in the write-ahead log, handed to the operating system, before ``commit(_:)`` or
/// ``recordAttempt(_:)`` returns, so it survives a crash or kill of the process at any later
/// point: that is what the at-least-once contract needs (an alert is never lost once committed,
/// and a delivery is never marked done before it was done). WAL is only fsynced at checkpoints,
/// so a power loss or kernel crash may roll back the last transactions before the checkpoint;
/// the file stays consistent, and the worst outcome is an alert delivered again, or a quote
/// polled again. `busy_timeout` is 5 seconds (for other processes, such as a CLI reading the
/// file) and foreign keys are enforced.
///
/// The schema and its migrations are described in `StoreMigrations`.
public final class SQLiteAlertStore: RuleStateStore, QuoteHistoryStore, OutboxStore, AlertLogStore, RetentionStore,
    JobRunStore {
    /// The database file, or `:memory:` for an in-memory store. Every ``StoreError`` names it.
    public let path: String
    /// Internal for the tests that trace its connection.
    let writer: any DatabaseWriter
    /// Told of every error that makes the state unusable, from the store's own read and write
    /// path (``open(path:onUnusable:)``).
    private let onUnusable: UnusableStateHandler?
    /// The file opened (nil in memory, or when it could not be examined): writes check that
    /// the path still names it.
    private let identity: StateFile.Identity?

    /// Called with each ``StoreError`` that makes the state unusable
    /// (``StoreError/makesTheStateUnusable``), before the operation throws it.
    public typealias UnusableStateHandler = @Sendable (StoreError) -> Void

    private init(path: String, writer: any DatabaseWriter, onUnusable: UnusableStateHandler? = nil,
                 identity: StateFile.Identity? = nil) {
        self.path = path
        self.writer = writer
        self.onUnusable = onUnusable
        self.identity = identity
    }

    /// Opens the database file at `path`, creating it and its parent directory when missing,
    /// and migrates it to the current schema.
    ///
    /// Call it at startup: it blocks while the file is opened and migrated. A file written by a
    /// newer version (one that records schema migrations this version does not know) is
    /// refused with ``StoreError/newerVersion(path:unknownMigrations:)`` before anything is
    /// written to it; so are a damaged file (``StoreError/corrupted(path:operation:reason:)``,
    /// found by `PRAGMA quick_check` on a read-only connection) and another program's database
    /// (``StoreError/foreign(path:tables:)``: tables, but no pricewatch schema), which is
    /// never taken over.
    ///
    /// - Throws: ``StoreError/cannotOpen(path:reason:)``, e.g.
    ///   `state database /var/lib/pricewatch/pricewatch.db: cannot open: unable to open database file`,
    ///   ``StoreError/newerVersion(path:unknownMigrations:)``, ``StoreError/corrupted(path:operation:reason:)``,
    ///   ``StoreError/foreign(path:tables:)``, ``StoreError/emptied(path:)``.
    ///
    /// - Parameter onUnusable: told of every error of a later operation that makes the state
    ///   unusable (damage SQLite finds while the daemon runs), whichever role of the store the
    ///   caller holds: no reader can keep such an error to itself. Errors of the opening itself
    ///   are thrown, not reported.
    public static func open(path: String, onUnusable: UnusableStateHandler? = nil) throws -> SQLiteAlertStore {
        guard !path.isEmpty else { throw StoreError.cannotOpen(path: path, reason: "no path given") }
        do {
            try ParentDirectory.create(for: path)
        } catch {
            throw StoreError.cannotOpen(path: path, reason: error.description)
        }
        if StateFile.identity(StateFile.replacedNote(of: path)) != nil { throw StoreError.replacedSinceUse(path: path) }
        switch StateFile.size(path) {
        case nil where StateFile.hasMarker(path):
            throw StoreError.deleted(path: path, whileOpen: false)
        case nil:
            try createNew(path: path)
        case 0?:
            throw StoreError.emptied(path: path)
        default:
            // Before anything writes to it (opening the pool alone switches it to WAL).
            try checkExisting(path: path)
        }
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: configuration())
        } catch {
            throw openingError(error, path: path)
        }
        do {
            try migrate(pool, path: path)
        } catch {
            try? pool.close()
            throw error
        }
        StateFile.writeMarker(path)
        return SQLiteAlertStore(path: path, writer: pool, onUnusable: onUnusable, identity: StateFile.identity(path))
    }

    /// Writes a new file with the current schema under a temporary name, then renames it into
    /// place, so `path` never names a file without a schema: an empty file at `path` is always
    /// a lost state (``StoreError/emptied(path:)``), never one whose creation was interrupted.
    private static func createNew(path: String) throws {
        let temporary = path + ".new"
        StateFile.remove(temporary)
        StateFile.remove(temporary + "-journal")
        do {
            var configuration = configuration()
            // Nothing reads the file before it is complete, and an interrupted one is removed
            // above: its migrations keep their journal in memory and do not wait for the disk
            // (each one waited three times, a third of a new daemon's start to READY on this
            // machine). The file is synchronised once, whole, before it takes its name.
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA journal_mode = MEMORY")
                try db.execute(sql: "PRAGMA synchronous = OFF")
            }
            let queue = try DatabaseQueue(path: temporary, configuration: configuration)
            try StoreMigrations.migrator.migrate(queue)
            try queue.close()
        } catch {
            StateFile.remove(temporary)
            throw StoreError.cannotOpen(path: path, reason: "creating the file: " + reason(error))
        }
        if let failure = StateFile.synchronize(temporary) {
            StateFile.remove(temporary)
            throw StoreError.cannotOpen(path: path, reason: "creating the file: \(failure)")
        }
        if let failure = StateFile.rename(temporary, to: path) {
            StateFile.remove(temporary)
            throw StoreError.cannotOpen(path: path, reason: "creating the file: \(failure)")
        }
    }

    /// Checks an existing file through a read-only connection that changes nothing: damage
    /// (``checkIntegrity(_:path:)``), then another program's database
    /// (``StoreError/foreign(path:tables:)``), so neither is ever written to.
    static func checkExisting(path: String) throws {
        var configuration = configuration()
        configuration.readonly = true
        let queue: DatabaseQueue
        do {
            queue = try openReadOnlyQueue(path: path, configuration: configuration)
        } catch {
            throw openingError(error, path: path)
        }
        defer { try? queue.close() }
        try checkIntegrity(queue, path: path)
        let tables: [String]?
        do {
            tables = try queue.read { db in try foreignTables(db) }
        } catch {
            throw openingError(error, path: path)
        }
        if let tables { throw StoreError.foreign(path: path, tables: tables) }
    }

    /// The first tables of a database that has tables but no pricewatch schema (no `v1`
    /// migration recorded); nil for a pricewatch database or one without any table.
    static func foreignTables(_ db: Database) throws -> [String]? {
        guard try !StoreMigrations.migrator.appliedIdentifiers(db).contains("v1") else { return nil }
        let names = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name LIMIT 6")
        return names.isEmpty ? nil : names
    }

    /// `PRAGMA quick_check` (every page and index entry, without comparing index contents to
    /// their tables): damage anywhere in the file is found at start, not one poll at a time.
    static func checkIntegrity(_ reader: any DatabaseReader, path: String) throws {
        let problems: [String]
        do {
            problems = try reader.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
        } catch {
            throw openingError(error, path: path)
        }
        guard problems != ["ok"] else { return }
        // SQLite's rows can span lines ("*** in database main ***" then the page): one line each,
        // so the error stays one log and terminal line.
        let lines = problems.map { $0.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") }
        let shown = lines.prefix(3).joined(separator: "; ") + (lines.count > 3 ? "; and \(lines.count - 3) more" : "")
        throw StoreError.corrupted(path: path, operation: "integrity check", reason: shown)
    }

    /// An error while opening: damage stays damage, anything else is "cannot open".
    static func openingError(_ error: any Error, path: String) -> StoreError {
        if case .corrupted(let path, _, let reason) = classify(error, path: path, operation: "open") {
            return .corrupted(path: path, operation: "open", reason: reason)
        }
        return .cannotOpen(path: path, reason: reason(error))
    }

    /// Opens an existing database file for reading only (`pricewatch alerts`), next to a
    /// daemon that may be writing it: WAL lets a reader see the last committed state without
    /// blocking the writer. Nothing is created, migrated or written; a file of an older schema
    /// that this version can read is read as it is.
    ///
    /// - Throws: ``StoreError/cannotOpen(path:reason:)`` when the file is missing, unreadable
    ///   or has no pricewatch schema, ``StoreError/newerVersion(path:unknownMigrations:)``.
    public static func openReadOnly(path: String) throws -> SQLiteAlertStore {
        guard !path.isEmpty else { throw StoreError.cannotOpen(path: path, reason: "no path given") }
        guard ParentDirectory.fileExists(path) else {
            if StateFile.hasMarker(path) { throw StoreError.deleted(path: path, whileOpen: false) }
            throw StoreError.cannotOpen(path: path, reason: "no such file (the daemon creates it when it first starts)")
        }
        guard StateFile.size(path) != 0 else { throw StoreError.emptied(path: path) }
        var configuration = configuration()
        configuration.readonly = true
        let queue: DatabaseQueue
        let applied: Set<String>
        let unknown: [String]
        do {
            queue = try openReadOnlyQueue(path: path, configuration: configuration)
            applied = try queue.read { db in try StoreMigrations.migrator.appliedIdentifiers(db) }
            unknown = try queue.read { db in try StoreMigrations.unknownMigrations(in: db) }
        } catch {
            throw openingError(error, path: path)
        }
        guard unknown.isEmpty else { throw StoreError.newerVersion(path: path, unknownMigrations: unknown) }
        if let tables = try? queue.read({ db in try foreignTables(db) }) { throw StoreError.foreign(path: path, tables: tables) }
        guard applied.contains("v1") else {
            throw StoreError.cannotOpen(path: path, reason: "not a pricewatch state database (no schema)")
        }
        return SQLiteAlertStore(path: path, writer: queue)
    }

    /// A read-only connection. A WAL database needs its `-shm` file, which SQLite cannot create
    /// on a read-only file system or in a directory the reader may not write; when it cannot,
    /// and no `-wal` file exists (so no writer has the file open and no committed transaction
    /// waits in a log), the file is opened as immutable: read as it is, without any locking.
    static func openReadOnlyQueue(path: String, configuration: GRDB.Configuration) throws -> DatabaseQueue {
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            // The first read is where SQLite finds out it cannot use the WAL index.
            _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            return queue
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CANTOPEN && !ParentDirectory.fileExists(path + "-wal") {
            return try DatabaseQueue(path: immutableURI(path), configuration: configuration)
        }
    }

    /// `file:PATH?immutable=1`, with the characters a URI path cannot hold escaped.
    static func immutableURI(_ path: String) -> String {
        var escaped = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"), 0..<0x20, 0x7f...:
                escaped += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            default:
                escaped += String(UnicodeScalar(byte))
            }
        }
        return "file:\(escaped)?immutable=1"
    }

    /// Creates a private in-memory database with the current schema (for tests and dry runs).
    ///
    /// - Throws: ``StoreError/cannotOpen(path:reason:)``.
    public static func inMemory() throws -> SQLiteAlertStore {
        let path = ":memory:"
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(configuration: configuration())
        } catch {
            throw StoreError.cannotOpen(path: path, reason: reason(error))
        }
        try migrate(queue, path: path)
        return SQLiteAlertStore(path: path, writer: queue)
    }

    /// Closes the database connections. Later calls fail; closing twice does nothing.
    ///
    /// Without it, the connections close when the last reference to the store goes.
    public func close() throws {
        do {
            try writer.close()
        } catch {
            throw StoreError.failed(path: path, operation: "close", reason: Self.reason(error))
        }
    }

    // MARK: - RuleStateStore and QuoteHistoryStore

    /// Every stored rule state, keyed by rule id and symbol, with its fingerprint.
    public func ruleStates() async throws -> [RuleStateKey: StoredRuleState] {
        try await read("reading rule states") { db in try RuleStateTable.all(in: db) }
    }

    /// The quotes of one provider and symbol at or after `since`, oldest first, preceded by the
    /// newest one before `since` when there is one. The newest quote overall is always
    /// included (it is either at or after `since`, or that anchor). No quote appears twice.
    /// The query ``windowHistories(_:)`` reads each source with, on its own.
    public func history(provider: String, symbol: String, since: Timestamp) async throws -> [HistoryPoint] {
        try await read("reading the history of \(provider) \(symbol)") { db in
            try QuoteTable.history(provider: provider, symbol: symbol, since: since, in: db)
        }
    }

    /// Every request's window history in one read transaction (cached statements, no round
    /// trip per source).
    public func windowHistories(_ requests: [WindowHistoryRequest]) async throws -> [[HistoryPoint]] {
        try await read("reading the window histories of \(requests.count) sources") { db in
            // A new state file holds no quote: one look instead of two queries a source (with
            // 10,000 symbols, a tenth of the start to READY).
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM quote)") ?? false else {
                return Array(repeating: [], count: requests.count)
            }
            return try requests.map { request in
                try request.read { since in
                    try QuoteTable.history(provider: request.source.provider, symbol: request.source.symbol, since: since, in: db)
                }
            }
        }
    }

    /// Writes one poll's outcome in one transaction: all of it, or nothing.
    ///
    /// Quotes whose `(provider, symbol, time)` is already stored are skipped; rule states are
    /// inserted or replaced; each alert whose id is not yet stored is inserted with one pending
    /// delivery per sink, due at `commit.now`. An alert id that is already stored (a firing
    /// replayed after a crash) adds nothing: neither the alert nor deliveries.
    public func commit(_ commit: StoreCommit) async throws {
        guard !commit.isEmpty else { return }
        try await write("commit") { db in
            try QuoteTable.insert(commit.quotes, provider: commit.provider, in: db)
            try RuleStateTable.upsert(commit.states, in: db)
            for pending in commit.alerts {
                let inserted = try AlertTable.insert(pending.alert, createdAt: commit.now, in: db)
                guard inserted else { continue }
                try DeliveryTable.insertPending(notificationID: pending.alert.id, sinks: pending.sinks, now: commit.now, in: db)
            }
        }
    }

    // MARK: - OutboxStore

    /// Pending deliveries whose next attempt is at or before `dueBy`, ordered by next attempt,
    /// then queue time, then queue order; at most `limit` (none when `limit` is not positive).
    /// Across sinks, so not part of ``OutboxStore`` (the dispatcher reads sink by sink): for
    /// tests and tools.
    public func pendingDeliveries(dueBy: Timestamp, limit: Int) async throws -> [Delivery] {
        try await read("reading due deliveries") { db in
            try DeliveryTable.pending(dueBy: dueBy, limit: limit, in: db)
        }
    }

    /// Queues `notification` with one pending delivery per sink, due at `now`, in one
    /// transaction. A notification whose id is already stored adds nothing (a producer that
    /// queues again after a crash queues nothing twice). An alert of kind `alert` also enters
    /// the alert log.
    @discardableResult
    public func enqueue(_ notification: OutgoingNotification, sinks: [String], now: Timestamp) async throws -> Bool {
        try await write("queuing notification \(notification.id)") { db in
            let inserted: Bool
            if notification.kind == .alert, let alert = notification.alert {
                inserted = try AlertTable.insert(alert, createdAt: now, in: db)
            } else {
                inserted = try NotificationTable.insert(notification, createdAt: now, in: db)
            }
            guard inserted else { return false }
            try DeliveryTable.insertPending(notificationID: notification.id, sinks: sinks, now: now, in: db)
            return true
        }
    }

    /// Pending deliveries of one sink due at or before `dueBy`, in the same order; at most
    /// `limit`.
    public func pendingDeliveries(sink: String, dueBy: Timestamp, limit: Int) async throws -> [Delivery] {
        try await read("reading due deliveries of sink '\(sink)'") { db in
            try DeliveryTable.pending(sink: sink, dueBy: dueBy, limit: limit, in: db)
        }
    }

    /// Every sink with pending deliveries and the earliest next attempt among them.
    public func pendingSinks() async throws -> [String: Timestamp] {
        try await read("reading the sinks with pending deliveries") { db in try DeliveryTable.pendingSinks(in: db) }
    }

    /// How many deliveries are pending, due or not (`SELECT COUNT(*)`).
    public func pendingDeliveryCount() async throws -> Int {
        try await read("counting pending deliveries") { db in try DeliveryTable.pendingCount(in: db) }
    }

    /// The earliest next attempt of any pending delivery, if there is one (tests and tools).
    public func nextPendingAttempt() async throws -> Timestamp? {
        try await read("reading the next delivery time") { db in try DeliveryTable.nextPendingAttempt(in: db) }
    }

    /// Records the outcome of one attempt: `delivered` marks the delivery delivered at
    /// `outcome.at`; `retry` keeps it pending until the given time with the error; `dead`
    /// gives up on it with the error. Each counts one attempt.
    ///
    /// Only a pending delivery changes: for one already delivered or dead, the first final
    /// outcome stands and the call does nothing.
    ///
    /// - Throws: ``StoreError/unknownDelivery(path:alertID:sink:)`` when the outbox has no such
    ///   delivery.
    ///
    /// Tests and tools; the dispatcher records through ``recordAttempts(_:)``.
    public func recordAttempt(_ outcome: DeliveryOutcome) async throws {
        try await write("recording a delivery attempt") { db in try DeliveryTable.record(outcome, in: db) }
    }

    /// Records the outcomes of one attempt at a group in one transaction, each as
    /// ``recordAttempt(_:)`` does; an unknown delivery fails the whole call.
    public func recordAttempts(_ outcomes: [DeliveryOutcome]) async throws {
        guard !outcomes.isEmpty else { return }
        try await write("recording delivery attempts") { db in
            for outcome in outcomes { try DeliveryTable.record(outcome, in: db) }
        }
    }

    // MARK: - RetentionStore

    /// Deletes quotes older than `cutoff`, keeping per provider and symbol the newest quote at
    /// or before it (the anchor a window base may need). Returns how many rows went.
    @discardableResult
    public func pruneHistory(before cutoff: Timestamp) async throws -> Int {
        try await write("pruning history") { db in try QuoteTable.prune(before: cutoff, in: db) }
    }

    /// Deletes alerts queued before `cutoff` (wall clock) that have no pending delivery, with
    /// their deliveries. Returns how many alerts went.
    @discardableResult
    public func pruneAlerts(before cutoff: Timestamp) async throws -> Int {
        try await write("pruning the alert log") { db in try AlertTable.prune(before: cutoff, in: db) }
    }

    /// Deletes notifications other than alerts queued before `cutoff` that have no pending
    /// delivery, with their deliveries. Returns how many went.
    @discardableResult
    public func pruneNotifications(before cutoff: Timestamp) async throws -> Int {
        try await write("pruning notifications") { db in try NotificationTable.prune(before: cutoff, in: db) }
    }

    /// Deletes the states of rule-and-symbol pairs not in `live` whose last alert (quote time)
    /// is before `lastAlertBefore` or absent. Returns how many went.
    @discardableResult
    public func pruneRuleStates(keeping live: Set<RuleStateKey>, lastAlertBefore: Timestamp) async throws -> Int {
        try await write("pruning rule states") { db in
            try RuleStateTable.prune(keeping: live, lastAlertBefore: lastAlertBefore, in: db)
        }
    }

    /// Runs `PRAGMA optimize`: SQLite refreshes the statistics of the query planner where
    /// they went stale (cheap when nothing changed much).
    public func optimize() async throws {
        try await write("optimizing") { db in try db.execute(sql: "PRAGMA optimize") }
    }

    // MARK: - AlertLogStore

    /// The alerts whose quote time is at or after `since` (all when nil), oldest first (alerts
    /// with equal times in the order they were committed), each with its deliveries.
    public func alerts(since: Timestamp?) async throws -> [AlertRecord] {
        try await read("reading alerts") { db in try AlertTable.records(since: since, in: db) }
    }

    // MARK: - JobRunStore

    /// The last recorded run of every scheduled job.
    public func jobRuns() async throws -> [String: JobRun] {
        try await read("reading the runs of scheduled jobs") { db in try JobRunTable.all(in: db) }
    }

    /// Records `run` as its job's last run.
    public func recordJobRun(_ run: JobRun) async throws {
        try await write("recording the run of job '\(run.job)'") { db in try JobRunTable.upsert(run, in: db) }
    }

    // MARK: - Dead letters

    /// The dead letters `selection` names, by alert time, each with its alert.
    public func deadLetters(_ selection: DeadLetterSelection) async throws -> [Delivery] {
        try await read("reading dead letters") { db in try DeadLetterTable.select(selection, in: db) }
    }

    /// Puts the dead letters `selection` names back in the outbox, due at `now`, in one
    /// transaction: each becomes pending again with its alert id, no attempt counted and its
    /// queue time (the start of `max_age`) set to `now`; its last error stays until the next
    /// attempt. A running daemon picks them up at its next look at the outbox. Returns them as
    /// they were (dead), oldest alert first.
    public func requeueDeadLetters(_ selection: DeadLetterSelection, now: Timestamp) async throws -> [Delivery] {
        try await write("re-queueing dead letters") { db in try DeadLetterTable.requeue(selection, now: now, in: db) }
    }

    // MARK: - Read helpers

    /// How many quotes, states, alerts and deliveries (by status) are stored.
    public func counts() async throws -> StoreCounts {
        try await read("counting rows") { db in
            let deliveries = try DeliveryTable.countsByStatus(in: db)
            return StoreCounts(
                quotes: try QuoteTable.count(in: db),
                ruleStates: try RuleStateTable.count(in: db),
                alerts: try AlertTable.count(in: db),
                pendingDeliveries: deliveries[.pending] ?? 0,
                deliveredDeliveries: deliveries[.delivered] ?? 0,
                deadDeliveries: deliveries[.dead] ?? 0)
        }
    }

    /// Every stored quote of one provider and symbol with all its fields, oldest first.
    public func quotes(provider: String, symbol: String) async throws -> [Quote] {
        try await read("reading the quotes of \(provider) \(symbol)") { db in
            try QuoteTable.quotes(provider: provider, symbol: symbol, in: db)
        }
    }

    // MARK: - Plumbing

    static func configuration() -> GRDB.Configuration {
        var configuration = GRDB.Configuration()
        configuration.label = "pricewatch.store"
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        // Readers are the dashboard, `/metrics` and `status`: two are plenty, and each
        // connection keeps its own page cache (GRDB's default is five).
        configuration.maximumReaderCount = 2
        configuration.prepareDatabase { db in
            // GRDB also sets it when it turns WAL on; stated here because durability rests on it.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        return configuration
    }

    /// Refuses a file from a newer version, then applies the missing migrations.
    private static func migrate(_ writer: any DatabaseWriter, path: String) throws {
        let unknown: [String]
        do {
            unknown = try writer.read { db in try StoreMigrations.unknownMigrations(in: db) }
        } catch {
            throw openingError(error, path: path)
        }
        guard unknown.isEmpty else { throw StoreError.newerVersion(path: path, unknownMigrations: unknown) }
        do {
            try StoreMigrations.migrator.migrate(writer)
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "migrating the schema: " + reason(error))
        }
    }

    // Every operation of every role goes through `read` or `write`: the one place where an
    // error that makes the state unusable is reported.
    func read<T: Sendable>(_ operation: String, _ body: @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await writer.read(body)
        } catch {
            throw reported(translate(error, operation: operation))
        }
    }

    func write<T: Sendable>(_ operation: String, _ body: @Sendable (Database) throws -> T) async throws -> T {
        // What is written to a file the path no longer names is lost at the next start.
        try verifyFile()
        do {
            return try await writer.write(body)
        } catch {
            throw reported(translate(error, operation: operation))
        }
    }

    /// Throws (and reports) ``StoreError/deleted(path:whileOpen:)`` or
    /// ``StoreError/replaced(path:)`` when the path no longer names the file this store opened:
    /// one `stat(2)`, done before every write and on the housekeeping beat.
    public func verifyFile() throws {
        guard let identity else { return }
        guard let now = StateFile.identity(path) else { throw reported(StoreError.deleted(path: path, whileOpen: true)) }
        if now != identity {
            StateFile.writeReplacedNote(path)
            throw reported(StoreError.replaced(path: path))
        }
    }

    /// `error`, after telling ``onUnusable`` when it makes the state unusable.
    func reported(_ error: any Error) -> any Error {
        if let error = error as? StoreError, error.makesTheStateUnusable { onUnusable?(error) }
        return error
    }

    /// Adds the path and the operation to an error; cancellation stays cancellation.
    private func translate(_ error: any Error, operation: String) -> any Error {
        switch error {
        case is CancellationError:
            return error
        case let fault as StoreFault:
            switch fault {
            case .invalidValue(let table, let column, let value):
                return StoreError.invalidData(path: path, table: table, column: column, value: value)
            case .unknownDelivery(let alertID, let sink):
                return StoreError.unknownDelivery(path: path, alertID: alertID, sink: sink)
            }
        default:
            return Self.classify(error, path: path, operation: operation)
        }
    }

    /// A SQLite failure as the store error that says what can be done about it: damage is
    /// ``StoreError/corrupted(path:operation:reason:)``, a refusal to write now (full disk, I/O
    /// error, locked, read-only) ``StoreError/unavailable(path:operation:reason:)``, anything
    /// else ``StoreError/failed(path:operation:reason:)``.
    static func classify(_ error: any Error, path: String, operation: String) -> StoreError {
        let reason = Self.reason(error)
        guard let error = error as? DatabaseError else {
            return .failed(path: path, operation: operation, reason: reason)
        }
        switch error.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return .corrupted(path: path, operation: operation, reason: reason)
        case .SQLITE_FULL, .SQLITE_IOERR, .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_READONLY, .SQLITE_CANTOPEN,
             .SQLITE_NOMEM, .SQLITE_PROTOCOL:
            return .unavailable(path: path, operation: operation, reason: reason)
        default:
            return .failed(path: path, operation: operation, reason: reason)
        }
    }

    /// SQLite's own message (`database is locked`, `CHECK constraint failed: id <> ''`),
    /// without the statement or its values.
    private static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return error.message ?? "SQLite error \(error.resultCode.rawValue)"
        }
        return String(describing: error)
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
