import GRDB
import PriceWatchCore

/// The `company_event`, `calendar_read` and `event_reminder` tables.
enum CompanyEventTable {
    static func events(of symbols: [String]?, in db: Database) throws -> [CompanyEvent] {
        let rows: RowCursor
        if let symbols {
            guard !symbols.isEmpty else { return [] }
            let marks = Array(repeating: "?", count: symbols.count).joined(separator: ",")
            rows = try Row.fetchCursor(db, sql: """
                SELECT symbol, kind, date, last_date, estimate, source, moved_from, timing FROM company_event
                WHERE symbol IN (\(marks)) ORDER BY date, symbol, kind
                """, arguments: StatementArguments(symbols))
        } else {
            rows = try Row.fetchCursor(db, sql: """
                SELECT symbol, kind, date, last_date, estimate, source, moved_from, timing FROM company_event ORDER BY date, symbol, kind
                """)
        }
        var events: [CompanyEvent] = []
        while let row = try rows.next() {
            // A row this version cannot read (another version's kind) is skipped, not guessed.
            guard let kind = EventKind(rawValue: try row.decode(String.self, atIndex: 1)),
                  let date = CivilDate(parsing: try row.decode(String.self, atIndex: 2)) else { continue }
            events.append(CompanyEvent(symbol: try row.decode(String.self, atIndex: 0), kind: kind, date: date,
                                       lastDate: try row.decode(String?.self, atIndex: 3).flatMap(CivilDate.init(parsing:)),
                                       estimate: try row.decode(Int64?.self, atIndex: 4).map(ExactDecimal.init(scaled:)),
                                       source: try row.decode(String.self, atIndex: 5),
                                       movedFrom: try row.decode(String?.self, atIndex: 6).flatMap(CivilDate.init(parsing:)),
                                       timing: try row.decode(String?.self, atIndex: 7).flatMap(EarningsTiming.init(rawValue:))))
        }
        return events
    }

    static func store(_ symbol: String, events: [CompanyEvent], drop: [String], now: Timestamp, in db: Database) throws {
        for id in drop { try db.execute(sql: "DELETE FROM company_event WHERE id = ?", arguments: [id]) }
        for event in events {
            try db.execute(sql: """
                INSERT OR REPLACE INTO company_event (id, symbol, kind, date, last_date, estimate, source, moved_from, timing)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [event.id, event.symbol, event.kind.rawValue, event.date.description, event.lastDate?.description,
                                 event.estimate?.scaled, event.source, event.movedFrom?.description, event.timing?.rawValue])
        }
        try db.execute(sql: "INSERT OR REPLACE INTO calendar_read (symbol, read_at) VALUES (?, ?)", arguments: [symbol, now.milliseconds])
    }

    static func readTimes(of symbols: [String], in db: Database) throws -> [String: Timestamp] {
        var times: [String: Timestamp] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT symbol, read_at FROM calendar_read")
        let wanted = Set(symbols)
        while let row = try rows.next() {
            let symbol = try row.decode(String.self, atIndex: 0)
            if wanted.contains(symbol) { times[symbol] = Timestamp(milliseconds: try row.decode(Int64.self, atIndex: 1)) }
        }
        return times
    }

    static func unsent(_ reminders: [(rule: String, event: String)], in db: Database) throws -> Set<String> {
        let sent = try db.cachedStatement(sql: "SELECT 1 FROM event_reminder WHERE rule_id = ? AND event_id = ?")
        var unsent = Set<String>()
        for reminder in reminders where try Bool.fetchOne(sent, arguments: [reminder.rule, reminder.event]) == nil {
            unsent.insert(reminder.rule + "\u{0}" + reminder.event)
        }
        return unsent
    }

    static func record(rule: String, event: String, now: Timestamp, in db: Database) throws {
        try db.execute(sql: "INSERT OR IGNORE INTO event_reminder (rule_id, event_id, sent_at) VALUES (?, ?, ?)",
                       arguments: [rule, event, now.milliseconds])
    }
}
