import GRDB

/// `pricewatch check --state`: whether the state database can serve the daemon, found without
/// changing it (opened read-only, next to a daemon that may be running).
public enum StateInspection {
    /// What the inspection found.
    public enum Verdict: Sendable, Hashable {
        /// No file yet (and no marker of an earlier one): the daemon creates it at its first start.
        case absent
        /// A usable state database, with what it holds.
        case usable(StoreCounts)
        /// The file cannot serve: damaged, emptied, from a newer version, not a pricewatch
        /// database, or unreadable.
        case unusable(StoreError)
    }

    /// Inspects the file at `path`: its size, then `PRAGMA quick_check` over every page, then its
    /// schema, then its row counts. Blocks while it reads the file.
    public static func inspect(path: String) -> Verdict {
        guard let size = StateFile.size(path) else {
            // Missing beside its marker: a lost state, not a first start.
            return StateFile.hasMarker(path) ? .unusable(.deleted(path: path, whileOpen: false)) : .absent
        }
        guard size > 0 else { return .unusable(.emptied(path: path)) }
        var configuration = SQLiteAlertStore.configuration()
        configuration.readonly = true
        do {
            let queue = try SQLiteAlertStore.openReadOnlyQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            try SQLiteAlertStore.checkIntegrity(queue, path: path)
            return try queue.read { db in
                let unknown = try StoreMigrations.unknownMigrations(in: db)
                guard unknown.isEmpty else { return .unusable(.newerVersion(path: path, unknownMigrations: unknown)) }
                if let tables = try SQLiteAlertStore.foreignTables(db) { return .unusable(.foreign(path: path, tables: tables)) }
                guard try StoreMigrations.migrator.appliedIdentifiers(db).contains("v1") else {
                    return .unusable(.cannotOpen(path: path, reason: "not a pricewatch state database (no schema)"))
                }
                let deliveries = try DeliveryTable.countsByStatus(in: db)
                return .usable(StoreCounts(
                    quotes: try QuoteTable.count(in: db), ruleStates: try RuleStateTable.count(in: db),
                    alerts: try AlertTable.count(in: db), pendingDeliveries: deliveries[.pending] ?? 0,
                    deliveredDeliveries: deliveries[.delivered] ?? 0, deadDeliveries: deliveries[.dead] ?? 0))
            }
        } catch let error as StoreError {
            return .unusable(error)
        } catch {
            return .unusable(SQLiteAlertStore.openingError(error, path: path))
        }
    }
}
