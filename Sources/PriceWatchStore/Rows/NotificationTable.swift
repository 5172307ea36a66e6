import FoundationEssentials
import GRDB
import PriceWatchCore

/// The `notification` table: every queued notification, the parent of its deliveries. An
/// alert's fields live in `alert` (same id, `body` NULL); other kinds keep their content in
/// `body` as JSON.
enum NotificationTable {
    /// What `body` holds: the content of a notification that is not a plain alert.
    private struct Body: Codable {
        var alert: Alert?
        var message: NotificationMessage?
    }

    /// The notification columns of a query whose `notification` table is aliased `n`, then
    /// the alert columns (`alert` aliased `a`, LEFT JOINed on the id), in the order
    /// ``decode(_:at:path:)`` reads them.
    static let selection = "n.id, n.kind, n.time, n.body, \(AlertTable.selection)"

    /// ``selection`` for a file that may predate the migration `alert-series`.
    static func selection(in db: Database) throws -> String {
        "n.id, n.kind, n.time, n.body, \(try AlertTable.selection(in: db))"
    }
    /// How many columns ``selection`` has.
    static let columnCount = 4 + AlertTable.columnCount

    /// Inserts the notification row unless one with its id is stored; returns whether it was
    /// inserted. An alert of kind `alert` stores no body (its row in `alert` has the fields).
    static func insert(_ notification: OutgoingNotification, createdAt: Timestamp, in db: Database) throws -> Bool {
        var body: String?
        if !(notification.kind == .alert && notification.alert != nil) {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let data = try encoder.encode(Body(alert: notification.alert, message: notification.message))
            body = String(decoding: data, as: UTF8.self)
        }
        try db.cachedStatement(sql: """
            INSERT INTO notification (id, kind, time, created_at, body) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (id) DO NOTHING
            """).execute(arguments: [notification.id, notification.kind.rawValue, notification.time.milliseconds,
                                     createdAt.milliseconds, body])
        return db.changesCount > 0
    }

    /// Reads the notification whose ``selection`` starts at column `offset`.
    static func decode(_ row: Row, at offset: Int) throws -> OutgoingNotification {
        let id = try row.decode(String.self, atIndex: offset)
        let kind = NotificationKind(try row.decode(String.self, atIndex: offset + 1))
        let time = Timestamp(milliseconds: try row.decode(Int64.self, atIndex: offset + 2))
        if let text = try row.decode(String?.self, atIndex: offset + 3) {
            guard let body = try? JSONDecoder().decode(Body.self, from: Data(text.utf8)) else {
                throw StoreFault.invalidValue(table: "notification", column: "body", value: String(text.prefix(80)))
            }
            if let message = body.message {
                return OutgoingNotification(id: id, kind: kind, time: time, content: .message(message))
            }
            if let alert = body.alert {
                return OutgoingNotification(id: id, kind: kind, time: time, content: .alert(alert))
            }
            throw StoreFault.invalidValue(table: "notification", column: "body", value: String(text.prefix(80)))
        }
        // No body: an alert, whose fields come from the joined `alert` row.
        guard try row.decode(String?.self, atIndex: offset + 4) != nil else {
            throw StoreFault.invalidValue(table: "notification", column: "body", value: "NULL for a notification without an alert")
        }
        let alert = try AlertTable.decode(row, at: offset + 4)
        return OutgoingNotification(id: id, kind: kind, time: time, content: .alert(alert))
    }

    /// Deletes notifications other than alerts queued before `cutoff` that have no pending
    /// delivery; their deliveries go with them. Returns how many went.
    static func prune(before cutoff: Timestamp, in db: Database) throws -> Int {
        try db.execute(sql: """
            DELETE FROM notification
            WHERE created_at < ? AND body IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM delivery WHERE notification_id = notification.id AND status = 'pending')
            """, arguments: [cutoff.milliseconds])
        return db.changesCount
    }
}
