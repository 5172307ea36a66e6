/// Why the state database could not be opened or an operation on it failed.
///
/// Every description starts with the database path, and context reads left to right:
/// `state database /var/lib/pricewatch/pricewatch.db: cannot open: unable to open database file`.
/// No description carries a statement's bound values.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be created, opened or migrated to the current schema.
    case cannotOpen(path: String, reason: String)
    /// The file records schema migrations this version does not know: a newer pricewatch wrote
    /// it. It is left untouched.
    case newerVersion(path: String, unknownMigrations: [String])
    /// A stored value this version cannot read (the file was edited by hand, or is damaged).
    case invalidData(path: String, table: String, column: String, value: String)
    /// An outcome was recorded for a delivery the outbox does not hold.
    case unknownDelivery(path: String, alertID: String, sink: String)
    /// An operation on an open database failed (`operation` names it, e.g. `commit`).
    case failed(path: String, operation: String, reason: String)

    /// The database file the error is about (`:memory:` for an in-memory store).
    public var path: String {
        switch self {
        case .cannotOpen(let path, _), .newerVersion(let path, _), .invalidData(let path, _, _, _),
             .unknownDelivery(let path, _, _), .failed(let path, _, _):
            path
        }
    }

    /// One line for logs and command output.
    public var description: String {
        let prefix = "state database \(path): "
        switch self {
        case .cannotOpen(_, let reason):
            return prefix + "cannot open: \(reason)"
        case .newerVersion(_, let unknown):
            return prefix + "written by a newer version of pricewatch (unknown schema migrations: "
                + unknown.joined(separator: ", ")
                + "); not opened and left unchanged: upgrade pricewatch or point `state` at another file"
        case .invalidData(_, let table, let column, let value):
            return prefix + "invalid value '\(value)' in \(table).\(column)"
        case .unknownDelivery(_, let alertID, let sink):
            return prefix + "no delivery of alert \(alertID) to sink '\(sink)'"
        case .failed(_, let operation, let reason):
            return prefix + "\(operation): \(reason)"
        }
    }
}
