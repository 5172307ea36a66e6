import FoundationEssentials
import GRDB
import PriceWatchCore

/// The `delivery` table: the outbox, one row per notification and sink.
enum DeliveryTable {
    /// The delivery columns of a query whose `delivery` table is aliased `d`, in the order
    /// ``decode(_:at:notification:)`` reads them.
    static let selection = "d.sink, d.status, d.attempts, d.created_at, d.next_attempt_at, d.delivered_at, d.last_error, d.held_until"

    /// ``selection`` for a file the daemon may not have migrated yet (`pricewatch alerts` reads
    /// it as it is): before the `quiet-hold` migration there is no `held_until`, read as NULL.
    static func readSelection(in db: Database) throws -> String {
        guard try !db.columns(in: "delivery").contains(where: { $0.name == "held_until" }) else { return selection }
        return selection.replacingOccurrences(of: "d.held_until", with: "NULL")
    }

    /// Queues one pending delivery per sink, due at `now`. A sink named twice is queued once.
    static func insertPending(notificationID: String, sinks: [String], now: Timestamp, in db: Database) throws {
        guard !sinks.isEmpty else { return }
        let statement = try db.cachedStatement(sql: """
            INSERT INTO delivery (notification_id, sink, status, attempts, created_at, next_attempt_at)
            VALUES (?, ?, 'pending', 0, ?, ?)
            ON CONFLICT (notification_id, sink) DO NOTHING
            """)
        for sink in sinks {
            try statement.execute(arguments: [notificationID, sink, now.milliseconds, now.milliseconds])
        }
    }

    /// Reads the delivery whose ``selection`` starts at column `offset`.
    static func decode(_ row: Row, at offset: Int, notification: OutgoingNotification) throws -> Delivery {
        let statusText = try row.decode(String.self, atIndex: offset + 1)
        guard let status = Delivery.Status(rawValue: statusText) else {
            throw StoreFault.invalidValue(table: "delivery", column: "status", value: statusText)
        }
        return Delivery(
            notification: notification,
            sink: try row.decode(String.self, atIndex: offset),
            status: status,
            attempts: try row.decode(Int.self, atIndex: offset + 2),
            createdAt: Timestamp(milliseconds: try row.decode(Int64.self, atIndex: offset + 3)),
            nextAttemptAt: try row.decode(Int64?.self, atIndex: offset + 4).map(Timestamp.init(milliseconds:)),
            deliveredAt: try row.decode(Int64?.self, atIndex: offset + 5).map(Timestamp.init(milliseconds:)),
            lastError: try row.decode(String?.self, atIndex: offset + 6),
            heldUntil: try row.decode(Int64?.self, atIndex: offset + 7).map(Timestamp.init(milliseconds:)))
    }

    /// Pending deliveries due at or before `dueBy`: by next attempt, then queue time, then
    /// insertion order; at most `limit`.
    static func pending(dueBy: Timestamp, limit: Int, in db: Database) throws -> [Delivery] {
        guard limit > 0 else { return [] }
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: """
                SELECT \(NotificationTable.selection), \(selection)
                FROM delivery AS d JOIN notification AS n ON n.id = d.notification_id LEFT JOIN alert AS a ON a.id = n.id
                WHERE d.status = 'pending' AND d.next_attempt_at <= ?
                ORDER BY d.next_attempt_at, d.created_at, d.rowid
                LIMIT ?
                """),
            arguments: [dueBy.milliseconds, limit])
        var deliveries: [Delivery] = []
        while let row = try rows.next() {
            let notification = try NotificationTable.decode(row, at: 0)
            deliveries.append(try decode(row, at: NotificationTable.columnCount, notification: notification))
        }
        return deliveries
    }

    /// Pending deliveries of one sink due at or before `dueBy`, in the order of
    /// ``pending(dueBy:limit:in:)``; served by the `delivery_by_sink` index.
    static func pending(sink: String, dueBy: Timestamp, limit: Int, in db: Database) throws -> [Delivery] {
        guard limit > 0 else { return [] }
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: """
                SELECT \(NotificationTable.selection), \(selection)
                FROM delivery AS d JOIN notification AS n ON n.id = d.notification_id LEFT JOIN alert AS a ON a.id = n.id
                WHERE d.status = 'pending' AND d.sink = ? AND d.next_attempt_at <= ?
                ORDER BY d.next_attempt_at, d.created_at, d.rowid
                LIMIT ?
                """),
            arguments: [sink, dueBy.milliseconds, limit])
        var deliveries: [Delivery] = []
        while let row = try rows.next() {
            let notification = try NotificationTable.decode(row, at: 0)
            deliveries.append(try decode(row, at: NotificationTable.columnCount, notification: notification))
        }
        return deliveries
    }

    /// Each sink with pending deliveries and its earliest next attempt.
    static func pendingSinks(in db: Database) throws -> [String: Timestamp] {
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT sink, min(next_attempt_at) FROM delivery WHERE status = 'pending' GROUP BY sink
            """))
        var sinks: [String: Timestamp] = [:]
        while let row = try rows.next() {
            // A pending row always has a next attempt; a NULL (a file edited by hand) is due now.
            let next = try row.decode(Int64?.self, atIndex: 1) ?? Int64.min
            sinks[try row.decode(String.self, atIndex: 0)] = Timestamp(milliseconds: next)
        }
        return sinks
    }

    /// The earliest next attempt of any pending delivery.
    static func pendingCount(in db: Database) throws -> Int {
        // `delivery_due` starts with `status`: an index range count, no row is read.
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM delivery WHERE status = 'pending'") ?? 0
    }

    static func nextPendingAttempt(in db: Database) throws -> Timestamp? {
        try Int64.fetchOne(db, sql: "SELECT min(next_attempt_at) FROM delivery WHERE status = 'pending'")
            .map(Timestamp.init(milliseconds:))
    }

    /// Applies one attempt's outcome to a pending delivery.
    ///
    /// A delivery that is already delivered or dead is left as it is: its first final outcome
    /// stands, so a late or repeated report can never queue a delivered alert again.
    static func record(_ outcome: DeliveryOutcome, in db: Database) throws {
        let key: StatementArguments = ["id": outcome.notificationID, "sink": outcome.sink]
        let match = "WHERE notification_id = :id AND sink = :sink AND status = 'pending'"
        switch outcome.result {
        case .delivered:
            try db.execute(sql: """
                UPDATE delivery SET status = 'delivered', attempts = attempts + 1, delivered_at = :at,
                                    next_attempt_at = NULL
                \(match)
                """, arguments: key + ["at": outcome.at.milliseconds])
        case .retry(let next, let error):
            try db.execute(sql: """
                UPDATE delivery SET attempts = attempts + 1, next_attempt_at = :next, last_error = :error
                \(match)
                """, arguments: key + ["next": next.milliseconds, "error": error])
        case .dead(let error):
            try db.execute(sql: """
                UPDATE delivery SET status = 'dead', attempts = attempts + 1, next_attempt_at = NULL,
                                    last_error = :error
                \(match)
                """, arguments: key + ["error": error])
        case .silenced(let silence):
            try db.execute(sql: """
                UPDATE delivery SET status = 'silenced', next_attempt_at = NULL, last_error = :error
                \(match)
                """, arguments: key + ["error": "silenced by \(silence)"])
        case .held(let until):
            try db.execute(sql: """
                UPDATE delivery SET next_attempt_at = :next, held_until = :next, last_error = :error
                \(match)
                """, arguments: key + ["next": until.milliseconds, "error": QuietHours.heldMessage(until: until)])
        }
        guard db.changesCount == 0 else { return }
        let exists = try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM delivery WHERE notification_id = :id AND sink = :sink)",
            arguments: key) ?? false
        if !exists { throw StoreFault.unknownDelivery(alertID: outcome.notificationID, sink: outcome.sink) }
    }

    /// How many deliveries have each status (statuses without any are absent).
    static func countsByStatus(in db: Database) throws -> [Delivery.Status: Int] {
        let rows = try Row.fetchCursor(db, sql: "SELECT status, count(*) FROM delivery GROUP BY status")
        var counts: [Delivery.Status: Int] = [:]
        while let row = try rows.next() {
            let text = try row.decode(String.self, atIndex: 0)
            guard let status = Delivery.Status(rawValue: text) else {
                throw StoreFault.invalidValue(table: "delivery", column: "status", value: text)
            }
            counts[status] = try row.decode(Int.self, atIndex: 1)
        }
        return counts
    }
}
