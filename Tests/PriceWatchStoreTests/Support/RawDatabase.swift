import GRDB

/// Direct SQL on a database file, through a connection of its own: how the tests reach what the
/// store's API deliberately does not offer (triggers, the migration table, the schema), with no
/// hook in the store itself.
struct RawDatabase {
    let path: String

    /// Runs statements in one transaction.
    func execute(_ sql: String) throws {
        try queue().write { db in try db.execute(sql: sql) }
    }

    /// The first column of every row of a query, as text.
    func strings(_ sql: String) throws -> [String] {
        try queue().read { db in try String.fetchAll(db, sql: sql) }
    }

    /// A single integer.
    func integer(_ sql: String) throws -> Int? {
        try queue().read { db in try Int.fetchOne(db, sql: sql) }
    }

    /// The applied migrations, in name order.
    func migrations() throws -> [String] {
        try strings("SELECT identifier FROM grdb_migrations ORDER BY identifier")
    }

    /// The SQL of every table, index and trigger, in name order.
    func schema() throws -> [String] {
        try strings("SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_master ORDER BY name")
    }

    private func queue() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        return try DatabaseQueue(path: path, configuration: configuration)
    }
}
