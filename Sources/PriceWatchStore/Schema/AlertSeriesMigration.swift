import GRDB

/// The schema migration `alert-series` (registered in ``StoreMigrations``).
///
/// - `alert.series`: for an alert of a technical rule, the series it compared and their
///   values (a `SeriesReading` as JSON: `timeframe`, `of`, `ofValue`, `level`, `levelValue`);
///   NULL for a price rule's alert and for every alert stored before this version.
enum AlertSeriesMigration {
    static func migrate(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE alert ADD COLUMN series TEXT")
    }
}
