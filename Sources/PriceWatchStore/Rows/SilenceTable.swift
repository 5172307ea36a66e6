import GRDB
import PriceWatchCore

/// The `silence` table (see ``SilencesMigration``).
enum SilenceTable {
    static let selection = "id, rule, symbol, starts_at, ends_at, comment, created_at"

    static func insert(_ silence: Silence, in db: Database) throws {
        var rule: String?, symbol: String?
        switch silence.target {
        case .rule(let value): rule = value
        case .symbol(let value): symbol = value
        }
        try db.execute(sql: """
            INSERT INTO silence (id, rule, symbol, starts_at, ends_at, comment, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
            """, arguments: [silence.id, rule, symbol, silence.startsAt.milliseconds, silence.endsAt.milliseconds,
                             silence.comment, silence.createdAt.milliseconds])
    }

    static func decode(_ row: Row) throws -> Silence {
        let id = try row.decode(String.self, atIndex: 0)
        let target: Silence.Target
        if let rule = try row.decode(String?.self, atIndex: 1) {
            target = .rule(rule)
        } else if let symbol = try row.decode(String?.self, atIndex: 2) {
            target = .symbol(symbol)
        } else {
            throw StoreFault.invalidValue(table: "silence", column: "rule", value: "NULL (and symbol NULL) for \(id)")
        }
        return Silence(id: id, target: target,
                       startsAt: Timestamp(milliseconds: try row.decode(Int64.self, atIndex: 3)),
                       endsAt: Timestamp(milliseconds: try row.decode(Int64.self, atIndex: 4)),
                       comment: try row.decode(String.self, atIndex: 5),
                       createdAt: Timestamp(milliseconds: try row.decode(Int64.self, atIndex: 6)))
    }

    static func fetch(endingAfter: Timestamp?, in db: Database) throws -> [Silence] {
        let rows: RowCursor
        if let endingAfter {
            rows = try Row.fetchCursor(db, sql: "SELECT \(selection) FROM silence WHERE ends_at > ? ORDER BY created_at, rowid",
                                       arguments: [endingAfter.milliseconds])
        } else {
            rows = try Row.fetchCursor(db, sql: "SELECT \(selection) FROM silence ORDER BY created_at, rowid")
        }
        var silences: [Silence] = []
        while let row = try rows.next() { silences.append(try decode(row)) }
        return silences
    }

    static func expire(id: String, now: Timestamp, in db: Database) throws -> Silence? {
        try db.execute(sql: "UPDATE silence SET ends_at = max(?, starts_at) WHERE id = ? AND ends_at > ?",
                       arguments: [now.milliseconds, id, now.milliseconds])
        return try Row.fetchOne(db, sql: "SELECT \(selection) FROM silence WHERE id = ?", arguments: [id]).map(decode)
    }

    static func generation(in db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT value FROM silence_generation WHERE id = 1") ?? 0
    }
}
