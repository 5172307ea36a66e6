import Foundation
import PriceWatchCore
import PriceWatchTestKit
import Testing

/// `pricewatch portfolio import`: a Ghostfolio activities CSV (Ghostfolio's column names, its
/// date forms, a quoted field with a comma) becomes a portfolio file that `check` accepts and
/// `portfolio` values; a bad row names its line; an existing file is kept without --replace.
@Suite struct PortfolioImportTests {
    @Test func aGhostfolioCSVBecomesAPortfolioFile() async throws {
        let directory = try TemporaryDirectory()
        try ReplayDaemonFiles.write(in: directory, prices: ["10"])
        let csv = RepositoryFiles.path("Tests/Fixtures/portfolios/ghostfolio-activities.csv")
        let result = try await CommandRunner.run(["portfolio", "import", "ghost", csv, "--config", "pricewatch.toml"], in: directory.path)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines.first == "wrote \(directory.file("portfolios.d/ghost.toml")): 3 lots", "\(result.standardOutput)")
        #expect(result.outputLines.contains("note: line 7: ITEM skipped: a portfolio file holds securities and cash only"))
        let written = try String(contentsOfFile: directory.file("portfolios.d/ghost.toml"), encoding: .utf8)
        #expect(written.contains("currency = \"USD\""))
        #expect(written.contains("[cash]\nUSD = -1.9\n"), "a dividend of 5 x 0.62 less a fee of 5: \(written)")
        #expect(written.contains("symbol = \"AAPL\"\nquantity = -4\nprice = 148.71\ncurrency = \"USD\"\ndate = 2022-06-01\nfees = 1.2"), "\(written)")
        #expect(written.contains("symbol = \"MSFT\"\nquantity = 5\nprice = 298.58\ncurrency = \"USD\"\ndate = 2021-09-01\nfees = 19"))
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.file("portfolios.d/ghost.toml"))
        #expect((attributes[.posixPermissions] as? Int) == 0o640)
        let check = try await CommandRunner.run(["check", "--config", "pricewatch.toml"], in: directory.path)
        #expect(check.status == 0, "\(check.standardError)")

        let again = try await CommandRunner.run(["portfolio", "import", "ghost", csv, "--config", "pricewatch.toml"], in: directory.path)
        #expect(again.status == 1 && again.standardError.contains("exists; give --replace to overwrite it"))
    }

    @Test func aBadRowNamesItsLine() async throws {
        let directory = try TemporaryDirectory()
        try ReplayDaemonFiles.write(in: directory, prices: ["10"])
        try directory.write("bad.csv", "Date,Symbol,Type,Quantity,UnitPrice,Currency\n2024-01-02,AAPL,BUY,ten,150,USD\n")
        let result = try await CommandRunner.run(["portfolio", "import", "bad", "bad.csv", "--config", "pricewatch.toml"], in: directory.path)
        #expect(result.status == 1)
        #expect(result.standardError == "error: bad.csv: line 2: quantity: expected a number, found \"ten\"\n")
        try directory.write("columns.csv", "When,What\n")
        let columns = try await CommandRunner.run(["portfolio", "import", "bad", "columns.csv", "--config", "pricewatch.toml"], in: directory.path)
        #expect(columns.standardError.hasPrefix("error: columns.csv: line 1: expected the columns date, symbol, type, quantity, price, currency"))
    }
}
