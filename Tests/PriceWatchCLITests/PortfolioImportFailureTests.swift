import Foundation
import PriceWatchTestKit
import Testing

/// Issue 29, item 9: a failed `portfolio import --replace` left a broken portfolio file (the old
/// one was replaced before the new one was checked), and hostile input went into the file as
/// it was. Now the new file is written beside, checked, and renamed only when good; values are
/// checked and escaped; the input is bounded.
@Suite struct PortfolioImportFailureTests {
    let directory: TemporaryDirectory
    static let header = "Date,Symbol,Type,Quantity,UnitPrice,Currency\n"

    init() async throws {
        directory = try TemporaryDirectory()
        try ReplayDaemonFiles.write(in: directory, prices: ["10"])
        try directory.write("good.csv", Self.header + "2024-01-02,AAPL,BUY,10,150,USD\n")
        let first = try await CommandRunner.run(["portfolio", "import", "ghost", "good.csv", "--config", "pricewatch.toml"], in: directory.path)
        try #require(first.status == 0, "\(first.standardError)")
    }

    var written: String { (try? String(contentsOfFile: directory.file("portfolios.d/ghost.toml"), encoding: .utf8)) ?? "" }

    func importReplacing(_ csv: String, timeout: Duration = defaultWaitTimeout) async throws -> CommandRunner.Result {
        try directory.write("new.csv", csv)
        return try await CommandRunner.run(["portfolio", "import", "ghost", "new.csv", "--replace", "--config", "pricewatch.toml"],
                                           in: directory.path, timeout: timeout)
    }

    func expectRefusedAndKept(_ result: CommandRunner.Result, saying expected: String, before: String,
                              sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(result.status == 1, "\(result.standardOutput.prefix(300)) \(result.standardError.prefix(300))", sourceLocation: sourceLocation)
        #expect(result.standardError.contains(expected), "\(result.standardError.prefix(500))", sourceLocation: sourceLocation)
        #expect(result.standardError.utf8.count < 500, "\(result.standardError.utf8.count) bytes of errors", sourceLocation: sourceLocation)
        #expect(!result.standardError.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, sourceLocation: sourceLocation)
        #expect(written == before, "the portfolio file changed: \(written.prefix(300))", sourceLocation: sourceLocation)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.file("portfolios.d"))
        #expect(names == ["ghost.toml"], "\(names)", sourceLocation: sourceLocation)
        let check = try await CommandRunner.run(["check", "--config", "pricewatch.toml"], in: directory.path)
        #expect(check.status == 0, "\(check.standardError)", sourceLocation: sourceLocation)
    }

    @Test func aNegativePriceIsRefusedAndTheOldFileKept() async throws {
        let before = written
        try await expectRefusedAndKept(try await importReplacing(Self.header + "2024-01-02,AAPL,BUY,10,-150,USD\n"), saying: "line 2: price", before: before)
    }

    @Test(arguments: ["AAA\r\nX: y", "AA\u{1b}[2JA", "A A"])
    func aSymbolWithControlCharactersOrBlanksIsRefused(symbol: String) async throws {
        let before = written
        try await expectRefusedAndKept(try await importReplacing(Self.header + "2024-01-02,\"\(symbol)\",BUY,10,150,USD\n"), saying: "line 2: symbol",
                                             before: before)
    }

    @Test func aHugeSymbolIsRefusedAtOnce() async throws {
        let before = written
        let result = try await importReplacing(Self.header + "2024-01-02,\(String(repeating: "S", count: 50 << 20)),BUY,10,150,USD\n",
                                               timeout: .seconds(30))
        try await expectRefusedAndKept(result, saying: "larger than", before: before)
    }

    @Test(arguments: [(500_000, "larger than"), (20_000, "at most 10000 rows")])
    func tooManyRowsAreRefused(count: Int, saying: String) async throws {
        let before = written
        let rows = String(repeating: "2024-01-02,AAPL,BUY,1,150,USD\n", count: count)
        try await expectRefusedAndKept(try await importReplacing(Self.header + rows, timeout: .seconds(60)), saying: saying, before: before)
    }
}
