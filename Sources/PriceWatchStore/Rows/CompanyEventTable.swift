import GRDB
import PriceWatchCore

/// The `company_event`, `calendar_source_read` and `event_reminder` tables.
enum CompanyEventTable {
    static func events(of symbols: [String]?, in db: Database) throws -> [CompanyEvent] {
        let rows: RowCursor
        if let symbols {
            guard !symbols.isEmpty else { return [] }
            let marks = Array(repeating: "?", count: symbols.count).joined(separator: ",")
            rows = try Row.fetchCursor(db, sql: """
                SELECT symbol, kind, date, last_date, estimate, source, moved_from, timing, amount, currency, split_ratio FROM company_event
                WHERE symbol IN (\(marks)) ORDER BY date, symbol, kind
                """, arguments: StatementArguments(symbols))
        } else {
            rows = try Row.fetchCursor(db, sql: """
                SELECT symbol, kind, date, last_date, estimate, source, moved_from, timing, amount, currency, split_ratio FROM company_event ORDER BY date, symbol, kind
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
                                       timing: try row.decode(String?.self, atIndex: 7).flatMap(EarningsTiming.init(rawValue:)),
                                       amount: try row.decode(Int64?.self, atIndex: 8).map(ExactDecimal.init(scaled:)),
                                       currency: try row.decode(String?.self, atIndex: 9),
                                       splitRatio: try row.decode(String?.self, atIndex: 10).flatMap(SplitRatio.init(parsing:))))
        }
        return events
    }

    static func store(_ symbol: String, source: String, events: [CompanyEvent], drop: [String], now: Timestamp, in db: Database) throws {
        for id in drop { try db.execute(sql: "DELETE FROM company_event WHERE id = ?", arguments: [id]) }
        for event in events {
            try db.execute(sql: """
                INSERT OR REPLACE INTO company_event
                    (id, symbol, kind, date, last_date, estimate, source, moved_from, timing, amount, currency, split_ratio)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [event.id, event.symbol, event.kind.rawValue, event.date.description, event.lastDate?.description,
                                 event.estimate?.scaled, event.source, event.movedFrom?.description, event.timing?.rawValue,
                                 event.amount?.scaled, event.currency, event.splitRatio?.stored])
        }
        try db.execute(sql: """
            INSERT INTO calendar_source_read (symbol, source, read_at, failed_at) VALUES (?, ?, ?, NULL)
            ON CONFLICT (symbol, source) DO UPDATE SET read_at = excluded.read_at, failed_at = NULL
            """, arguments: [symbol, source, now.milliseconds])
    }

    static func recordFailure(_ symbol: String, source: String, now: Timestamp, in db: Database) throws {
        try db.execute(sql: """
            INSERT INTO calendar_source_read (symbol, source, read_at, failed_at) VALUES (?, ?, NULL, ?)
            ON CONFLICT (symbol, source) DO UPDATE SET failed_at = excluded.failed_at
            """, arguments: [symbol, source, now.milliseconds])
    }

    static func reads(of symbols: [String], in db: Database) throws -> [CalendarRead] {
        var reads: [CalendarRead] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT symbol, source, read_at, failed_at FROM calendar_source_read ORDER BY symbol, source")
        let wanted = Set(symbols)
        while let row = try rows.next() {
            let symbol = try row.decode(String.self, atIndex: 0)
            guard wanted.contains(symbol) else { continue }
            reads.append(CalendarRead(symbol: symbol, source: try row.decode(String.self, atIndex: 1),
                                      readAt: try row.decode(Int64?.self, atIndex: 2).map(Timestamp.init(milliseconds:)),
                                      failedAt: try row.decode(Int64?.self, atIndex: 3).map(Timestamp.init(milliseconds:))))
        }
        return reads
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
