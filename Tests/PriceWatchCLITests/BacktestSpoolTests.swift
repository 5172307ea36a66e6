import Foundation
import PriceWatchTestKit
import Testing

/// `pricewatch backtest` with more alert output than the spool keeps in memory (4 MiB): the
/// lines go through its temporary file and come out whole and in order, and for a file found
/// out of order late, the first pass's lines (already spilled) are dropped.
@Suite struct BacktestSpoolTests {
    /// A price that alternates around 10 every minute: a `crosses` alert per row.
    static func rows(_ count: Int, reversed: Bool) -> String {
        let indexes = reversed ? Array((0..<count).reversed()) : Array(0..<count)
        return "symbol,time,price\n" + indexes.map { "X,\(1_727_875_800 + $0 * 60),\($0 % 2 == 0 ? "9" : "11")" }.joined(separator: "\n") + "\n"
    }

    @Test func outputLargerThanTheMemorySpoolComesOutWholeAndInOrder() async throws {
        let directory = try TemporaryDirectory()
        let count = 30_000
        try directory.write("rules.toml", "[[rule]]\nid = \"x\"\nsymbol = \"X\"\ncrosses = 10\n")
        try directory.write("ordered.csv", Self.rows(count, reversed: false))
        // In time order except for the last row, which goes first in time: found only at the end,
        // after the first pass has spilled its lines.
        var lateDisorder = Self.rows(count, reversed: false).split(separator: "\n").map(String.init)
        lateDisorder.append("X,\(1_727_875_800 - 60),11")
        try directory.write("late.csv", lateDisorder.joined(separator: "\n") + "\n")

        let ordered = try await CommandRunner.run(["backtest", "--rules", "rules.toml", "--data", "ordered.csv", "--format", "json"],
                                                  in: directory.path)
        #expect(ordered.status == 0, "\(ordered.standardError)")
        #expect(ordered.standardOutput.utf8.count > 4 << 20, "the output should exceed the in-memory spool")
        let lines = ordered.outputLines
        #expect(lines.count == count - 1)
        #expect(lines.allSatisfy { $0.hasPrefix("{\"") && $0.hasSuffix("}") }, "only whole JSON lines")
        let times = lines.compactMap { $0.range(of: "\"time\":\"").map { $0.upperBound } }.count
        #expect(times == count - 1)
        #expect(lines.first?.contains("2024-10-02T13:31:00Z") == true && lines.last?.contains("\"price\":") == true)

        let late = try await CommandRunner.run(["backtest", "--rules", "rules.toml", "--data", "late.csv", "--format", "json"],
                                               in: directory.path)
        #expect(late.status == 0, "\(late.standardError)")
        // Sorted, the extra row (11, a minute before the others) comes first: the side it records
        // is up, so the first 9 crosses down and every row after fires: one alert more.
        #expect(late.outputLines.count == count)
        #expect(late.outputLines.first?.contains("2024-10-02T13:30:00Z") == true, "\(late.outputLines.first ?? "")")
        #expect(Set(late.outputLines).count == count, "no line twice")
        #expect(late.outputLines.allSatisfy { $0.hasPrefix("{\"") && $0.hasSuffix("}") }, "only whole JSON lines")
        #expect(late.standardOutput.utf8.count < ordered.standardOutput.utf8.count + 1_000, "nothing of the first pass is left")
    }
}
