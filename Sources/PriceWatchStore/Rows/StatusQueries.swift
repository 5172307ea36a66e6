import GRDB
import PriceWatchCore

/// The read-only queries of `pricewatch alerts` (filtered) and `pricewatch rules`: filters
/// are applied in SQL, so a long alert log is never read whole to show a few rows.
enum StatusQueries {
    /// The alerts matching `query`, by time then insertion order, each with its deliveries
    /// (only those in `query.status` when it is given).
    static func alerts(matching query: AlertQuery, in db: Database) throws -> [AlertRecord] {
        var conditions: [String] = []
        var arguments: [(any DatabaseValueConvertible)?] = []
        if let since = query.since {
            conditions.append("a.time >= ?")
            arguments.append(since.milliseconds)
        }
        if let rule = query.rule {
            conditions.append("a.rule = ?")
            arguments.append(rule)
        }
        if let symbol = query.symbol {
            conditions.append("a.symbol = ?")
            arguments.append(symbol)
        }
        if let status = query.status {
            conditions.append("d.status = ?")
            arguments.append(status.rawValue)
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        // With a status, an inner join: an alert appears only with deliveries in that state.
        let join = query.status == nil ? "LEFT JOIN" : "JOIN"
        let key = try deliveryKey(in: db)
        let columns = try DeliveryTable.readSelection(in: db)
        let rows = try Row.fetchCursor(db, sql: """
            SELECT \(try AlertTable.selection(in: db)), \(columns)
            FROM alert AS a \(join) delivery AS d ON d.\(key) = a.id
            \(filter)
            ORDER BY a.time, a.rowid, d.rowid
            """, arguments: StatementArguments(arguments))
        return try assemble(rows)
    }

    /// The newest alert of every rule and symbol, with its deliveries.
    static func lastAlerts(in db: Database) throws -> [RuleStateKey: AlertRecord] {
        let key = try deliveryKey(in: db)
        let columns = try DeliveryTable.readSelection(in: db)
        let rows = try Row.fetchCursor(db, sql: """
            SELECT \(try AlertTable.selection(in: db)), \(columns)
            FROM alert AS a LEFT JOIN delivery AS d ON d.\(key) = a.id
            WHERE a.rowid IN (
                SELECT (SELECT b.rowid FROM alert AS b WHERE b.rule = g.rule AND b.symbol = g.symbol
                        ORDER BY b.time DESC, b.rowid DESC LIMIT 1)
                FROM (SELECT DISTINCT rule, symbol FROM alert) AS g)
            ORDER BY a.time, a.rowid, d.rowid
            """)
        var result: [RuleStateKey: AlertRecord] = [:]
        for record in try assemble(rows) {
            result[RuleStateKey(rule: record.alert.rule, symbol: record.alert.symbol)] = record
        }
        return result
    }

    /// The newest stored quote of every provider and symbol.
    static func latestQuotes(in db: Database) throws -> [ProviderSymbol: HistoryPoint] {
        let rows = try Row.fetchCursor(db, sql: """
            SELECT provider, symbol, max(time), price FROM quote GROUP BY provider, symbol
            """)
        var result: [ProviderSymbol: HistoryPoint] = [:]
        while let row = try rows.next() {
            let key = ProviderSymbol(provider: try row.decode(String.self, atIndex: 0), symbol: try row.decode(String.self, atIndex: 1))
            result[key] = HistoryPoint(time: Timestamp(milliseconds: try row.decode(Int64.self, atIndex: 2)),
                                       price: ExactDecimal(scaled: try row.decode(Int64.self, atIndex: 3)))
        }
        return result
    }

    /// The column of `delivery` naming its notification: `notification_id`, or `alert_id` in a
    /// file of schema v3 or older that the daemon has not migrated yet (these queries only read).
    private static func deliveryKey(in db: Database) throws -> String {
        try db.columns(in: "delivery").contains { $0.name == "notification_id" } ? "notification_id" : "alert_id"
    }

    /// Alert records from rows of ``AlertTable/selection`` then ``DeliveryTable/selection``,
    /// ordered by alert.
    private static func assemble(_ rows: RowCursor) throws -> [AlertRecord] {
        var records: [AlertRecord] = []
        while let row = try rows.next() {
            let id = try row.decode(String.self, atIndex: 0)
            if records.last?.alert.id != id {
                records.append(AlertRecord(alert: try AlertTable.decode(row, at: 0), deliveries: []))
            }
            guard try row.decode(String?.self, atIndex: AlertTable.columnCount) != nil, let last = records.indices.last else {
                continue
            }
            records[last].deliveries.append(try DeliveryTable.decode(row, at: AlertTable.columnCount,
                                                                     notification: OutgoingNotification(records[last].alert)))
        }
        return records
    }
}
