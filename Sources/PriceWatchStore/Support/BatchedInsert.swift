import GRDB
import GRDBSQLite

/// One `INSERT` of many rows: `rowsPerStatement` rows to a statement (`VALUES (…), (…), …`),
/// the rest one at a time, each form compiled once per connection (`cachedStatement`).
///
/// The per-poll writes insert a row per quote; one statement per row spent more in GRDB's
/// per-execution work (reset, bindings, observers) than in SQLite's insert (docs/benchmarks.md,
/// "The daemon as run"). Rows of one statement are applied in order, as separate statements
/// would be, so `ON CONFLICT` clauses see the rows before them. Values are bound with a
/// ``ParameterBinder``; the statement still runs through GRDB, which keeps its account of the
/// transaction.
struct BatchedInsert: Sendable {
    static let rowsPerStatement = 50

    /// The statement for one row.
    let single: String
    /// The statement for ``rowsPerStatement`` rows.
    let batch: String

    /// - Parameters:
    ///   - head: `INSERT INTO table (columns) VALUES`
    ///   - row: one row's values, `(?, ?, …)`
    ///   - tail: what follows the values (`ON CONFLICT …`), or nothing
    init(head: String, row: String, tail: String = "") {
        single = "\(head) \(row) \(tail)"
        batch = "\(head) \(Array(repeating: row, count: Self.rowsPerStatement).joined(separator: ", ")) \(tail)"
    }

    /// Inserts `rows`; `bind` binds one row's values in the order of `row`'s placeholders.
    func run<Row>(_ rows: some Collection<Row>, in db: Database,
                  bind: (Row, inout ParameterBinder) -> Void) throws {
        var pending = rows[...]
        if pending.count >= Self.rowsPerStatement {
            let statement = try db.cachedStatement(sql: batch)
            while pending.count >= Self.rowsPerStatement {
                try execute(statement, rows: pending.prefix(Self.rowsPerStatement), bind: bind)
                pending = pending.dropFirst(Self.rowsPerStatement)
            }
        }
        guard !pending.isEmpty else { return }
        let statement = try db.cachedStatement(sql: single)
        for row in pending {
            try execute(statement, rows: CollectionOfOne(row), bind: bind)
        }
    }

    private func execute<Row>(_ statement: Statement, rows: some Collection<Row>,
                              bind: (Row, inout ParameterBinder) -> Void) throws {
        // No arguments, marked valid: GRDB resets the statement and clears its bindings here,
        // and runs it below without binding anything of its own.
        statement.setUncheckedArguments(StatementArguments())
        var binder = ParameterBinder(statement.sqliteStatement)
        for row in rows { bind(row, &binder) }
        let expected = sqlite3_bind_parameter_count(statement.sqliteStatement)
        guard binder.count == expected else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE,
                                message: "batched insert: expected \(expected) bound parameters, found \(binder.count)",
                                sql: statement.sql)
        }
        try statement.execute()
    }
}
