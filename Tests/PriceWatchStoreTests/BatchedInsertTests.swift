import GRDB
@testable import PriceWatchStore
import Testing

/// ``BatchedInsert`` binds values straight to SQLite (``ParameterBinder``): what it stores must
/// be what GRDB's own arguments would have stored, and a row that binds the wrong number of
/// values must fail, never run with stale values.
@Suite struct BatchedInsertTests {
    private static let insert = BatchedInsert(head: "INSERT INTO item (number, label, amount) VALUES", row: "(?, ?, ?)")

    private static func database() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { try $0.execute(sql: "CREATE TABLE item (number INTEGER, label TEXT, amount INTEGER)") }
        return queue
    }

    private struct Item: Equatable {
        var number: Int64
        var label: String?
        var amount: Int64?
    }

    @Test("values of every kind, in batches and single rows, are stored as given")
    func valuesAreStoredAsGiven() throws {
        // 123 rows: two statements of 50 rows, then 23 single ones.
        let labels: [String?] = [nil, "AAPL", "Zürich €", "", "tab\tline\n", "^GSPC 'quoted'"]
        let items: [Item] = (0..<123).map { (index: Int) -> Item in
            let amount: Int64? = index % 5 == 0 ? nil : Int64.max - Int64(index)
            return Item(number: Int64(index) - 60, label: labels[index % labels.count], amount: amount)
        }
        let queue = try Self.database()
        try queue.write { db in
            try Self.insert.run(items, in: db) { item, row in
                row.bind(item.number)
                row.bind(item.label)
                row.bind(item.amount)
            }
        }
        let stored = try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT number, label, amount FROM item ORDER BY rowid").map {
                Item(number: $0[0], label: $0[1], amount: $0[2])
            }
        }
        #expect(stored == items)
    }

    @Test("a row that binds too few values fails and stores nothing of its statement")
    func aShortRowFails() throws {
        let queue = try Self.database()
        try queue.write { db in
            try Self.insert.run([Item(number: 1, label: "x", amount: 2)], in: db) { item, row in
                row.bind(item.number); row.bind(item.label); row.bind(item.amount)
            }
        }
        #expect(throws: DatabaseError.self) {
            try queue.write { db in
                try Self.insert.run([Item(number: 2, label: "y", amount: 3)], in: db) { item, row in
                    row.bind(item.number); row.bind(item.label)
                }
            }
        }
        let count = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item") }
        #expect(count == 1, "the statement with a missing value did not run")
    }
}
