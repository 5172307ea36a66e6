import PriceWatchCore

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
    /// The store cannot write now, for a reason outside the data: the disk is full, an I/O
    /// error, the file is locked or read-only. The same write may succeed later.
    case unavailable(path: String, operation: String, reason: String)
    /// The file is damaged (SQLite reports it malformed, or not a database, or its integrity
    /// check fails). Nothing more can be trusted to it: the daemon stops.
    case corrupted(path: String, operation: String, reason: String)
    /// The file exists with zero length. pricewatch always writes its schema into a new file
    /// before it names it, so an empty file is a state that was lost (truncated, or a failed
    /// restore), not a new one; it is not opened as new.
    case emptied(path: String)
    /// The file is a SQLite database of another program: it has tables (`tables`, the first
    /// few) but no pricewatch schema. It is not opened for writing and left unchanged, never
    /// taken over.
    case foreign(path: String, tables: [String])
    /// The file is gone: deleted while pricewatch had it open (`whileOpen`), or missing although
    /// its marker (`PATH.marker`) says pricewatch has used it. Not created again.
    case deleted(path: String, whileOpen: Bool)
    /// The path names another file than the one pricewatch opened (moved away, or another
    /// renamed over it while the daemon ran).
    case replaced(path: String)
    /// The file was replaced while pricewatch had it open (``replaced(path:)``), and a start
    /// finds the note of it (`PATH.replaced`): the file now there may be older than what
    /// pricewatch wrote, so alerts delivered since it was copied would be delivered again. Not
    /// used until the operator deletes the note.
    case replacedSinceUse(path: String)

    /// The database file the error is about (`:memory:` for an in-memory store).
    public var path: String {
        switch self {
        case .cannotOpen(let path, _), .newerVersion(let path, _), .invalidData(let path, _, _, _),
             .unknownDelivery(let path, _, _), .failed(let path, _, _), .unavailable(let path, _, _),
             .corrupted(let path, _, _), .emptied(let path), .foreign(let path, _), .deleted(let path, _), .replaced(let path),
             .replacedSinceUse(let path):
            path
        }
    }

    /// Whether the file cannot serve as the state at all, whatever is retried: damaged, emptied,
    /// written by a newer version, or another program's database. The daemon exits with its store-unusable status
    /// (`RestartPreventExitStatus=`), so systemd does not restart it in a loop.
    public var makesTheStateUnusable: Bool {
        switch self {
        case .corrupted, .emptied, .newerVersion, .foreign, .deleted, .replaced, .replacedSinceUse: true
        case .cannotOpen, .invalidData, .unknownDelivery, .failed, .unavailable: false
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
        case .failed(_, let operation, let reason), .unavailable(_, let operation, let reason):
            return prefix + "\(operation): \(reason)"
        case .corrupted(_, let operation, let reason):
            return prefix + "\(operation): \(reason): the file is damaged; restore it from a backup, "
                + "or move it away to start with an empty alert log"
        case .emptied:
            return prefix + "the file is empty (0 bytes), but pricewatch writes its schema into every file it creates: "
                + "the alert log, outbox and rule states it held are gone; not opened: restore it from a backup, "
                + "or delete it to start afresh"
        case .foreign(_, let tables):
            return prefix + "not a pricewatch state database: it has no pricewatch schema but other tables ("
                + tables.map { ControlCharacters.shortened($0) }.joined(separator: ", ")
                + "); not opened and left unchanged: point `state` at another file"
        case .deleted(let path, true):
            return prefix + "the file was deleted while pricewatch had it open: what it held and what was written since "
                + "is gone once pricewatch stops; restore it from a backup, or delete \(StateFile.marker(of: path)) to start afresh"
        case .deleted(let path, false):
            return prefix + "the file was deleted: it is missing, but \(StateFile.marker(of: path)) says pricewatch has used it, "
                + "so the alert log, outbox and rule states it held are gone; not created again: restore it from a backup, "
                + "or delete \(StateFile.marker(of: path)) to start afresh"
        case .replaced:
            return prefix + "the file was replaced while pricewatch had it open (the path now names another file); "
                + "pricewatch stops rather than write to the file it opened; it uses the file now there only once you delete "
                + "\(StateFile.replacedNote(of: path)) (the file may be older than what pricewatch wrote)"
        case .replacedSinceUse(let path):
            return prefix + "the file was replaced while pricewatch had it open, and may be older than what pricewatch wrote: "
                + "alerts delivered since it was copied would be delivered again; not used: check it is the state you want, "
                + "then delete \(StateFile.replacedNote(of: path))"
        }
    }
}

extension StoreError: TransientStoreError {
    /// Only ``unavailable(path:operation:reason:)``: a full disk, an I/O error, a lock, a
    /// read-only file.
    public var isTransient: Bool {
        if case .unavailable = self { return true }
        return false
    }
}
