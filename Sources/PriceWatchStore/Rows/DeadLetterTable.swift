import GRDB
import PriceWatchCore

/// Dead letters of the outbox (`delivery` rows with status `dead`): which ones an operator's
/// selection names, and putting them back in the queue once the receiver is fixed.
enum DeadLetterTable {
    /// The `WHERE` clause and arguments of `selection` over `delivery AS d JOIN notification AS n`.
    private static func filter(_ selection: DeadLetterSelection) -> (sql: String, arguments: StatementArguments) {
        var clauses = ["d.status = 'dead'"]
        var arguments = StatementArguments()
        if let alertID = selection.alertID {
            clauses.append("d.notification_id = ?")
            arguments += [alertID]
        }
        if let sink = selection.sink {
            clauses.append("d.sink = ?")
            arguments += [sink]
        }
        if let since = selection.since {
            clauses.append("n.time >= ?")
            arguments += [since.milliseconds]
        }
        return (clauses.joined(separator: " AND "), arguments)
    }

    /// The dead letters `selection` names, by notification time then queue order.
    static func select(_ selection: DeadLetterSelection, in db: Database) throws -> [Delivery] {
        let (clause, arguments) = filter(selection)
        let columns = try DeliveryTable.readSelection(in: db)
        let rows = try Row.fetchCursor(db, sql: """
            SELECT \(try NotificationTable.selection(in: db)), \(columns)
            FROM delivery AS d JOIN notification AS n ON n.id = d.notification_id LEFT JOIN alert AS a ON a.id = n.id
            WHERE \(clause)
            ORDER BY n.time, n.rowid, d.rowid
            """, arguments: arguments)
        var deliveries: [Delivery] = []
        while let row = try rows.next() {
            deliveries.append(try DeliveryTable.decode(row, at: NotificationTable.columnCount, notification: try NotificationTable.decode(row, at: 0)))
        }
        return deliveries
    }

    /// Puts the dead letters `selection` names back in the queue, due at `now`, with a fresh
    /// retry budget: no attempt counted yet, queued (the age `max_age` counts from) at `now`.
    /// The alert, its id and the delivery's last error stay. Returns the deliveries as they
    /// were before.
    static func requeue(_ selection: DeadLetterSelection, now: Timestamp, in db: Database) throws -> [Delivery] {
        let dead = try select(selection, in: db)
        let statement = try db.cachedStatement(sql: """
            UPDATE delivery SET status = 'pending', attempts = 0, created_at = ?, next_attempt_at = ?, delivered_at = NULL
            WHERE notification_id = ? AND sink = ? AND status = 'dead'
            """)
        for delivery in dead {
            try statement.execute(arguments: [now.milliseconds, now.milliseconds, delivery.notification.id, delivery.sink])
        }
        return dead
    }
}
