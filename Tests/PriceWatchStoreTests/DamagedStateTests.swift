import Foundation
import GRDB
import PriceWatchCore
@testable import PriceWatchStore
import Testing

/// A state file that cannot serve (damaged in the middle, emptied) is refused at open with an
/// error that says so, and `check --state`'s inspection finds the same; a new file is never
/// left empty.
@Suite struct DamagedStateTests {
    /// A real state file with enough quotes for many pages, closed.
    static func stateFile(in directory: TemporaryDirectory) async throws -> String {
        let path = directory.file("pricewatch.db")
        let store = try SQLiteAlertStore.open(path: path)
        let quotes = try (0..<4_000).map { try Fixtures.quote(at: Int64($0)) }
        try await store.commit(StoreCommit(provider: "yahoo", quotes: quotes, now: Fixtures.time(0)))
        try await store.commit(Fixtures.commit(try Fixtures.alert(id: "a1")))
        try store.close()
        return path
    }

    /// Overwrites one page in the middle of the file with garbage, as a bad sector, a torn
    /// write or a stray `dd` would.
    static func damageTheMiddle(of path: String) throws {
        // Every page in the main file first, none left in the write-ahead log.
        let queue = try DatabaseQueue(path: path)
        _ = try queue.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        try queue.close()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let pageSize = 4096
        let pages = size / pageSize
        try #require(pages >= 8, "the file must have pages to spare: \(pages)")
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: UInt64((pages / 2) * pageSize))
        try handle.write(contentsOf: Data((0..<pageSize).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }))
        try handle.close()
    }

    @Test func damageInTheMiddleIsRefusedAtOpen() async throws {
        let directory = try TemporaryDirectory()
        let path = try await Self.stateFile(in: directory)
        try Self.damageTheMiddle(of: path)
        let error = #expect(throws: StoreError.self) { try SQLiteAlertStore.open(path: path) }
        // Found by the integrity check, or earlier by SQLite itself if opening reads the page.
        guard case .corrupted(_, let operation, _)? = error else {
            Issue.record("expected corrupted, got \(String(describing: error))")
            return
        }
        #expect(["integrity check", "open"].contains(operation))
        #expect(error?.makesTheStateUnusable == true)
        #expect(error?.description.hasPrefix("state database \(path): \(operation): ") == true)
        #expect(error?.description.contains("the file is damaged; restore it from a backup") == true, "\(String(describing: error))")
        guard case .unusable(let inspected) = StateInspection.inspect(path: path), case .corrupted = inspected else {
            Issue.record("the inspection must find the damage: \(StateInspection.inspect(path: path))")
            return
        }
    }

    @Test func anEmptiedFileIsNotTakenForANewOne() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("pricewatch.db")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(throws: StoreError.emptied(path: path)) { try SQLiteAlertStore.open(path: path) }
        #expect(throws: StoreError.emptied(path: path)) { try SQLiteAlertStore.openReadOnly(path: path) }
        #expect(StateInspection.inspect(path: path) == .unusable(.emptied(path: path)))
        #expect(StoreError.emptied(path: path).makesTheStateUnusable)
        // Left as it was: nothing written into it.
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == 0)
    }

    @Test func aNewFileHasItsSchemaBeforeItHasItsName() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("state/pricewatch.db")
        #expect(StateInspection.inspect(path: path) == .absent)
        let store = try SQLiteAlertStore.open(path: path)
        try store.close()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.file("state")).filter { $0.hasSuffix(".new") }.isEmpty)
        #expect(try RawDatabase(path: path).migrations() == ["alert-series", "calendar-sources", "candles", "company-events", "news-ledger", "paper-ledger", "portfolio-values", "quiet-hold", "silences", "v1", "v2", "v3", "v4"])
        #expect(StateInspection.inspect(path: path) == .usable(StoreCounts(
            quotes: 0, ruleStates: 0, alerts: 0, pendingDeliveries: 0, deliveredDeliveries: 0, deadDeliveries: 0)))
    }

    @Test func aHealthyFileIsInspectedWithItsCounts() async throws {
        let directory = try TemporaryDirectory()
        let path = try await Self.stateFile(in: directory)
        #expect(StateInspection.inspect(path: path) == .usable(StoreCounts(
            quotes: 4_000, ruleStates: 0, alerts: 1, pendingDeliveries: 2, deliveredDeliveries: 0, deadDeliveries: 0)))
    }

    /// SQLite's own codes decide: damage is fatal, a refusal to write now is an outage, a
    /// broken constraint is neither.
    @Test func sqliteFailuresAreClassified() {
        func classify(_ code: ResultCode) -> StoreError {
            SQLiteAlertStore.classify(DatabaseError(resultCode: code, message: "m"), path: "p", operation: "commit")
        }
        #expect(classify(.SQLITE_CORRUPT) == .corrupted(path: "p", operation: "commit", reason: "m"))
        #expect(classify(.SQLITE_NOTADB) == .corrupted(path: "p", operation: "commit", reason: "m"))
        #expect(classify(.SQLITE_FULL) == .unavailable(path: "p", operation: "commit", reason: "m"))
        #expect(classify(.SQLITE_IOERR) == .unavailable(path: "p", operation: "commit", reason: "m"))
        #expect(classify(.SQLITE_READONLY) == .unavailable(path: "p", operation: "commit", reason: "m"))
        #expect(classify(.SQLITE_CONSTRAINT) == .failed(path: "p", operation: "commit", reason: "m"))
        #expect(!StoreError.unavailable(path: "p", operation: "commit", reason: "m").makesTheStateUnusable)
    }
}
