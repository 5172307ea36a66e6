import FoundationEssentials
import GRDB
import PriceWatchCore

/// The `alert` table: the alert log, keyed by the stable alert id.
enum AlertTable {
    /// The alert columns of a query whose `alert` table is aliased `a`, in the order
    /// ``decode(_:at:)`` reads them.
    static let selection = """
        a.id, a.rule, a.symbol, a.provider, a.condition, a.price, a.currency, a.time, a.base, a.change, \
        a.direction, a.message, a.series
        """
    /// How many columns ``selection`` has.
    static let columnCount = 13

    /// ``selection`` for a file that may predate the migration `alert-series` (read by a
    /// command before the daemon migrated it): its alerts have no series.
    static func selection(in db: Database) throws -> String {
        try db.columns(in: "alert").contains { $0.name == "series" } ? selection
            : selection.replacing("a.series", with: "NULL")
    }

    /// Inserts an alert unless one with its id is stored. Returns whether it was inserted.
    /// Its row in `notification` (kind `alert`) is inserted first, the parent of its deliveries.
    static func insert(_ alert: Alert, createdAt: Timestamp, in db: Database) throws -> Bool {
        guard try NotificationTable.insert(OutgoingNotification(alert), createdAt: createdAt, in: db) else { return false }
        try db.cachedStatement(sql: """
            INSERT INTO alert (id, rule, symbol, provider, condition, price, currency, time, base, change,
                               direction, message, created_at, series)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO NOTHING
            """).execute(arguments: [
                alert.id, alert.rule, alert.symbol, alert.provider, alert.condition, alert.price.scaled,
                alert.currency, alert.time.milliseconds, alert.base?.scaled, alert.change?.scaled,
                alert.direction, alert.message, createdAt.milliseconds, try alert.series.map(encodeSeries),
            ])
        // Changes of the statement itself only (not of triggers): 0 when the id was stored.
        return db.changesCount > 0
    }

    static func encodeSeries(_ series: SeriesReading) throws -> String {
        String(decoding: try JSONEncoder().encode(series), as: UTF8.self)
    }

    /// Reads the alert whose ``selection`` starts at column `offset`.
    static func decode(_ row: Row, at offset: Int) throws -> Alert {
        var alert = Alert(
            id: try row.decode(String.self, atIndex: offset),
            rule: try row.decode(String.self, atIndex: offset + 1),
            symbol: try row.decode(String.self, atIndex: offset + 2),
            provider: try row.decode(String?.self, atIndex: offset + 3),
            condition: try row.decode(String.self, atIndex: offset + 4),
            price: ExactDecimal(scaled: try row.decode(Int64.self, atIndex: offset + 5)),
            currency: try row.decode(String?.self, atIndex: offset + 6),
            time: Timestamp(milliseconds: try row.decode(Int64.self, atIndex: offset + 7)),
            base: try row.decode(Int64?.self, atIndex: offset + 8).map(ExactDecimal.init(scaled:)),
            change: try row.decode(Int64?.self, atIndex: offset + 9).map(ExactDecimal.init(scaled:)),
            direction: try row.decode(String?.self, atIndex: offset + 10),
            message: try row.decode(String.self, atIndex: offset + 11))
        if let text = try row.decode(String?.self, atIndex: offset + 12) {
            do {
                alert.series = try JSONDecoder().decode(SeriesReading.self, from: Data(text.utf8))
            } catch {
                throw StoreFault.invalidValue(table: "alert", column: "series", value: String(text.prefix(80)))
            }
        }
        return alert
    }

    /// The alerts whose time is at or after `since` (all when nil), by time then insertion
    /// order, each with its deliveries in insertion order.
    static func records(since: Timestamp?, in db: Database) throws -> [AlertRecord] {
        let filter = since == nil ? "" : "WHERE a.time >= ?"
        // A file of schema v3 or older (read by `pricewatch alerts` before the daemon migrated
        // it) names the column `alert_id`.
        let key = try db.columns(in: "delivery").contains { $0.name == "notification_id" } ? "notification_id" : "alert_id"
        let columns = try DeliveryTable.readSelection(in: db)
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: """
                SELECT \(try selection(in: db)), \(columns)
                FROM alert AS a LEFT JOIN delivery AS d ON d.\(key) = a.id
                \(filter)
                ORDER BY a.time, a.rowid, d.rowid
                """),
            arguments: StatementArguments(since.map { [$0.milliseconds] } ?? []))
        var records: [AlertRecord] = []
        while let row = try rows.next() {
            let id = try row.decode(String.self, atIndex: 0)
            if records.last?.alert.id != id {
                records.append(AlertRecord(alert: try decode(row, at: 0), deliveries: []))
            }
            // A LEFT JOIN row without a delivery has a NULL sink.
            guard try row.decode(String?.self, atIndex: columnCount) != nil, let last = records.indices.last else {
                continue
            }
            records[last].deliveries.append(try DeliveryTable.decode(row, at: columnCount,
                                                                     notification: OutgoingNotification(records[last].alert)))
        }
        return records
    }

    /// Deletes alerts created before `cutoff` that have no pending delivery; their deliveries
    /// go with them (the trigger deletes the notification row, whose deliveries cascade).
    /// Returns how many alerts went.
    static func prune(before cutoff: Timestamp, in db: Database) throws -> Int {
        try db.execute(sql: """
            DELETE FROM alert
            WHERE created_at < ?
              AND NOT EXISTS (SELECT 1 FROM delivery WHERE notification_id = alert.id AND status = 'pending')
            """, arguments: [cutoff.milliseconds])
        return db.changesCount
    }

    /// How many alerts are stored.
    static func count(in db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM alert") ?? 0
    }
}
