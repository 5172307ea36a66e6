import Foundation
import Testing

/// What the fault tests do to a daemon's state file from outside: the `sqlite3` tool, a
/// checkpoint of the write-ahead log, and garbage over one table's root page.
public enum StateFileSurgery {
    /// Runs `/usr/bin/sqlite3` with `arguments` and returns what it printed.
    public static func sqlite(_ arguments: [String]) async throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try TestProcesses.launch(process)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        try await waitUntil("sqlite3 to exit") { !process.isRunning }
        TestProcesses.forget(process)
        return String(decoding: data, as: UTF8.self)
    }

    /// Moves the write-ahead log into the main file, so a page damaged later is read from
    /// there (no one else may have the file open) or a copy of the main file holds what was
    /// committed (`whileOpen`: a passive checkpoint beside a running daemon).
    public static func checkpoint(_ path: String, whileOpen: Bool = false) async throws {
        let result = try await sqlite([path, whileOpen ? "PRAGMA wal_checkpoint(PASSIVE);" : "PRAGMA wal_checkpoint(TRUNCATE);"])
        try #require(result.hasPrefix("0|"), "checkpoint: \(result)")
    }

    /// Overwrites the root page of `table` (a small table has no other) with garbage.
    public static func damage(table: String, of path: String) async throws {
        let query = try await sqlite(["file:\(path)?mode=ro", "SELECT rootpage FROM sqlite_master WHERE name = '\(table)'; PRAGMA page_size;"])
        let numbers = query.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        try #require(numbers.count == 2, "rootpage and page size of \(table): \(query)")
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: UInt64((numbers[0] - 1) * numbers[1]))
        try handle.write(contentsOf: Data(repeating: 0x5A, count: numbers[1]))
        try handle.close()
    }
}
