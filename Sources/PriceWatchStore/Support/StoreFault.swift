/// A problem found inside a database access, before the store knows which path to report.
///
/// `SQLiteAlertStore` turns each into the matching ``StoreError`` with its path.
enum StoreFault: Error, Sendable {
    /// A column holds a value this version cannot map to the domain.
    case invalidValue(table: String, column: String, value: String)
    /// No outbox row for this alert and sink.
    case unknownDelivery(alertID: String, sink: String)
}
