import GRDB
import PriceWatchCore

/// The `news_rule_start` and `news_seen` tables.
enum NewsLedgerTable {
    static func starts(of rules: [String], now: Timestamp, in db: Database) throws -> [String: Timestamp] {
        var recorded: [String: Timestamp] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT rule_id, since FROM news_rule_start")
        var forgotten: [String] = []
        let wanted = Set(rules)
        while let row = try rows.next() {
            let id = try row.decode(String.self, atIndex: 0)
            if wanted.contains(id) {
                recorded[id] = Timestamp(milliseconds: try row.decode(Int64.self, atIndex: 1))
            } else {
                forgotten.append(id)
            }
        }
        for id in forgotten {
            try db.execute(sql: "DELETE FROM news_rule_start WHERE rule_id = ?", arguments: [id])
        }
        for id in rules where recorded[id] == nil {
            try db.execute(sql: "INSERT INTO news_rule_start (rule_id, since) VALUES (?, ?)", arguments: [id, now.milliseconds])
            recorded[id] = now
        }
        return recorded
    }

    static func unseen(_ headlines: [NewsHeadline], in db: Database) throws -> [NewsHeadline] {
        let guid = try db.cachedStatement(sql: "SELECT 1 FROM news_seen WHERE symbol = ? AND guid = ?")
        let link = try db.cachedStatement(sql: "SELECT 1 FROM news_seen WHERE symbol = ? AND link = ?")
        return try headlines.filter { headline in
            try Bool.fetchOne(guid, arguments: [headline.symbol, headline.guid]) == nil
                && Bool.fetchOne(link, arguments: [headline.symbol, headline.link]) == nil
        }
    }

    static func record(_ headlines: [NewsHeadline], now: Timestamp, in db: Database) throws {
        let insert = try db.cachedStatement(sql: """
            INSERT INTO news_seen (symbol, guid, link, published_at, seen_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (symbol, guid) DO NOTHING
            """)
        for headline in headlines {
            try insert.execute(arguments: [headline.symbol, headline.guid, headline.link, headline.publishedAt.milliseconds,
                                           now.milliseconds])
        }
    }

    static func forget(seenBefore cutoff: Timestamp, in db: Database) throws -> Int {
        try db.execute(sql: "DELETE FROM news_seen WHERE max(seen_at, published_at) < ?", arguments: [cutoff.milliseconds])
        return db.changesCount
    }
}
