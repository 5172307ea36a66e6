import GRDB
import GRDBSQLite

/// Binds one compiled statement's parameters straight to SQLite, left to right: each call
/// binds the next `?`.
///
/// The per-poll inserts bind eight values for each of 50,000 quotes. Through GRDB's
/// `StatementArguments` every value is boxed as `any DatabaseValueConvertible`, converted to
/// a `DatabaseValue` and checked against the statement before SQLite sees it: 5% of the
/// daemon's CPU in a 50,000-symbol cycle, more than SQLite's own inserts (docs/benchmarks.md,
/// "27 November 2026, later morning"). Here a value goes from its Swift type to `sqlite3_bind_*`
/// directly. ``BatchedInsert`` checks that every parameter was bound before it runs the
/// statement.
struct ParameterBinder: ~Copyable {
    private let statement: SQLiteStatement
    /// The number of parameters bound so far (the next one's index is this plus one).
    private(set) var count: Int32 = 0

    init(_ statement: SQLiteStatement) {
        self.statement = statement
    }

    mutating func bind(_ value: Int64) {
        count += 1
        sqlite3_bind_int64(statement, count, value)
    }

    mutating func bind(_ value: Int64?) {
        guard let value else { return bindNull() }
        bind(value)
    }

    mutating func bind(_ value: String) {
        count += 1
        // SQLite copies the text (SQLITE_TRANSIENT): the C string lives only for this call.
        var value = value
        value.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { text in
                _ = sqlite3_bind_text(statement, count, text.baseAddress, Int32(text.count), Self.transient)
            }
        }
    }

    mutating func bind(_ value: String?) {
        guard let value else { return bindNull() }
        bind(value)
    }

    mutating func bindNull() {
        count += 1
        sqlite3_bind_null(statement, count)
    }

    /// SQLite's `SQLITE_TRANSIENT` destructor (-1), which Swift does not import.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
