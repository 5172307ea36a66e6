import GRDB
import GRDBSQLite
import Synchronization

/// The statements SQLite compiles on one connection, in order, as their SQL.
///
/// SQLite has no hook on `sqlite3_prepare`, so compilations are found where they show: a
/// statement's trace (`SQLITE_TRACE_STMT`) fires as each run begins, before SQLite counts the
/// run, so a statement whose run counter (`SQLITE_STMTSTATUS_RUN`) is still 0 there has never
/// run since it was compiled. A statement GRDB keeps cached runs again with its counter above 0
/// and is not listed; one compiled for every call is listed at every call.
final class StatementCompilations: Sendable {
    private let compiled = Mutex<[String]>([])

    /// Starts listing the compilations of `db`'s connection (it replaces any trace of GRDB's).
    func install(on db: Database) {
        sqlite3_trace_v2(db.sqliteConnection, UInt32(SQLITE_TRACE_STMT), { _, context, statement, text in
            guard let context, let statement, let text else { return 0 }
            let sql = String(cString: text.assumingMemoryBound(to: CChar.self))
            // A trigger's program is traced as a comment (`-- TRIGGER name`) within its statement's run.
            guard !sql.hasPrefix("--"), sqlite3_stmt_status(OpaquePointer(statement), SQLITE_STMTSTATUS_RUN, 0) == 0 else {
                return 0
            }
            Unmanaged<StatementCompilations>.fromOpaque(context).takeUnretainedValue().record(sql)
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Stops listing; call it before this object goes.
    func remove(from db: Database) {
        sqlite3_trace_v2(db.sqliteConnection, 0, nil, nil)
    }

    /// The compilations listed since the last call, and a fresh list.
    func take() -> [String] {
        compiled.withLock { list in
            defer { list = [] }
            return list
        }
    }

    /// Whether `sql` is a transaction's own statement (`BEGIN`, `COMMIT`, a savepoint), which
    /// GRDB compiles at every transaction it opens: two per transaction, however many rows.
    static func isTransactionControl(_ sql: String) -> Bool {
        let head = sql.drop { $0 == " " || $0 == "\n" }.prefix(9).uppercased()
        return ["BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE"].contains { head.hasPrefix($0) }
    }

    private func record(_ sql: String) {
        compiled.withLock { $0.append(sql) }
    }
}
