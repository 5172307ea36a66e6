import GRDB

/// The schema migration `quiet-hold` (registered in ``StoreMigrations``).
///
/// - `delivery.held_until`: when a sink's quiet hours last held the delivery, the end of that
///   quiet period (wall clock ms); NULL for a delivery never held. It outlives the attempts
///   after the release, so a held delivery ages (`max_age`) from its release however its
///   retries go, and a release is told from a retry that happens to fall on a quiet period's
///   end.
enum QuietHoldMigration {
    static func migrate(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE delivery ADD COLUMN held_until INTEGER")
        // A delivery held before this version says so only in its last error: its next attempt
        // is its release.
        try db.execute(sql: """
            UPDATE delivery SET held_until = next_attempt_at
            WHERE status = 'pending' AND last_error LIKE 'held for quiet hours until %'
            """)
    }
}
