import GRDB

/// One `INSERT` of many rows: `rowsPerStatement` rows to a statement (`VALUES (…), (…), …`),
/// the rest one at a time, each form compiled once per connection (`cachedStatement`).
///
/// The per-poll writes insert a row per quote; one statement per row spent more in GRDB's
/// per-execution work (reset, bindings, observers) than in SQLite's insert (docs/benchmarks.md,
/// "The daemon as run"). Rows of one statement are applied in order, as separate statements
/// would be, so `ON CONFLICT` clauses see the rows before them.
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

    /// Inserts `rows`; `values` appends one row's values in the order of `row`'s placeholders.
    func run<Row>(_ rows: some Collection<Row>, in db: Database,
                  values: (Row, inout [(any DatabaseValueConvertible)?]) -> Void) throws {
        var arguments: [(any DatabaseValueConvertible)?] = []
        var pending = rows[...]
        if pending.count >= Self.rowsPerStatement {
            let statement = try db.cachedStatement(sql: batch)
            while pending.count >= Self.rowsPerStatement {
                arguments.removeAll(keepingCapacity: true)
                for row in pending.prefix(Self.rowsPerStatement) { values(row, &arguments) }
                try statement.execute(arguments: StatementArguments(arguments))
                pending = pending.dropFirst(Self.rowsPerStatement)
            }
        }
        guard !pending.isEmpty else { return }
        let statement = try db.cachedStatement(sql: single)
        for row in pending {
            arguments.removeAll(keepingCapacity: true)
            values(row, &arguments)
            try statement.execute(arguments: StatementArguments(arguments))
        }
    }
}
