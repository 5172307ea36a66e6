import GRDB
import PriceWatchCore

/// The `rule_state` table: one state per rule and symbol, with its rule fingerprint.
enum RuleStateTable {
    /// Inserts or replaces the given states.
    static func upsert(_ states: [RuleStateKey: StoredRuleState], in db: Database) throws {
        guard !states.isEmpty else { return }
        let statement = try db.cachedStatement(sql: """
            INSERT INTO rule_state (rule, symbol, fingerprint, phase, last_alert_at, alert_count, side)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (rule, symbol) DO UPDATE SET
                fingerprint = excluded.fingerprint,
                phase = excluded.phase,
                last_alert_at = excluded.last_alert_at,
                alert_count = excluded.alert_count,
                side = excluded.side
            """)
        for (key, stored) in states {
            try statement.execute(arguments: [
                key.rule, key.symbol, stored.fingerprint, stored.state.phase.rawValue,
                stored.state.lastAlertAt?.milliseconds, stored.state.alertCount, stored.state.side?.rawValue,
            ])
        }
    }

    /// Every stored state.
    static func all(in db: Database) throws -> [RuleStateKey: StoredRuleState] {
        let rows = try Row.fetchCursor(db, sql: """
            SELECT rule, symbol, fingerprint, phase, last_alert_at, alert_count, side FROM rule_state
            """)
        var states: [RuleStateKey: StoredRuleState] = [:]
        while let row = try rows.next() {
            let phaseText = try row.decode(String.self, atIndex: 3)
            guard let phase = RuleState.Phase(rawValue: phaseText) else {
                throw StoreFault.invalidValue(table: "rule_state", column: "phase", value: phaseText)
            }
            var side: RuleState.Side?
            if let sideText = try row.decode(String?.self, atIndex: 6) {
                guard let value = RuleState.Side(rawValue: sideText) else {
                    throw StoreFault.invalidValue(table: "rule_state", column: "side", value: sideText)
                }
                side = value
            }
            let key = RuleStateKey(rule: try row.decode(String.self, atIndex: 0),
                                   symbol: try row.decode(String.self, atIndex: 1))
            states[key] = StoredRuleState(
                fingerprint: try row.decode(String.self, atIndex: 2),
                state: RuleState(
                    phase: phase,
                    lastAlertAt: try row.decode(Int64?.self, atIndex: 4).map(Timestamp.init(milliseconds:)),
                    alertCount: try row.decode(Int.self, atIndex: 5),
                    side: side))
        }
        return states
    }

    /// Deletes the states whose key is not in `live` and whose last alert is before
    /// `lastAlertBefore` or absent. Returns how many went.
    static func prune(keeping live: Set<RuleStateKey>, lastAlertBefore: Timestamp, in db: Database) throws -> Int {
        let rows = try Row.fetchAll(db, sql: """
            SELECT rule, symbol FROM rule_state WHERE last_alert_at IS NULL OR last_alert_at < ?
            """, arguments: [lastAlertBefore.milliseconds])
        let delete = try db.cachedStatement(sql: "DELETE FROM rule_state WHERE rule = ? AND symbol = ?")
        var deleted = 0
        for row in rows {
            let key = RuleStateKey(rule: try row.decode(String.self, atIndex: 0), symbol: try row.decode(String.self, atIndex: 1))
            guard !live.contains(key) else { continue }
            try delete.execute(arguments: [key.rule, key.symbol])
            deleted += db.changesCount
        }
        return deleted
    }

    /// How many states are stored.
    static func count(in db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM rule_state") ?? 0
    }
}
