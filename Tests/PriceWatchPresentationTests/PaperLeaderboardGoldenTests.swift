import Foundation
import PriceWatchTestKit
import Testing
@testable import PriceWatchCore
import PriceWatchPresentation

/// The leaderboard in text, JSON and CSV against golden files (Tests/Fixtures/paper/), with a
/// tie, an account in another currency converted at a known rate, and one with no rate.
@Suite struct PaperLeaderboardGoldenTests {
    func statement(_ name: String, _ currency: String, start: String, equity: String) -> PaperReports.Statement {
        let account = PaperAccount(name: name, currency: currency, startingCash: dec(start), openedAt: at(0))
        // Equity as cash: an opening plus a posting of the gain against equity keeps it simple.
        var postings = PaperPosting.opening(of: account)
        postings.append(PaperPosting(entry: "gain", account: name, ledger: .cash,
                                     amount: ExactDecimal(scaled: dec(equity).scaled - dec(start).scaled),
                                     quantity: .zero, time: at(1)))
        return PaperReports.statement(account: account, postings: postings, orders: [], prices: [:])
    }

    var standings: [PaperReports.Standing] {
        let rate = ExchangeRate(base: "EUR", quote: "USD", rate: dec("1.08"), time: at(1_795_000_000_000),
                                source: "frankfurter")
        return PaperReports.leaderboard([
            (statement("bob", "USD", start: "50000", equity: "55000"), nil),
            (statement("carol", "EUR", start: "100000", equity: "95000"), rate),
            (statement("alice", "USD", start: "100000", equity: "110000"), nil),
            (statement("dave", "GBP", start: "20000", equity: "20000"), nil),
        ], currency: "USD")
    }

    @Test func ranksByReturnWithTiesSharingARank() {
        #expect(standings.map(\.account) == ["alice", "bob", "dave", "carol"])
        #expect(standings.map(\.rank) == [1, 1, 3, 4])
        #expect(standings[3].convertedEquity == dec("102600"))
        #expect(standings[2].convertedEquity == nil)
    }

    @Test(arguments: ["text", "json", "csv"])
    func matchesTheGoldenFile(format: String) throws {
        let rendered: String = switch format {
        case "json": PaperRendering.leaderboardJSON(standings, currency: "USD")
        case "csv": PaperRendering.leaderboardCSV(standings, currency: "USD")
        default: PaperRendering.leaderboardText(standings, currency: "USD")
        }
        let path = RepositoryFiles.path("Tests/Fixtures/paper/leaderboard.\(format == "text" ? "txt" : format)")
        if ProcessInfo.processInfo.environment["PRICEWATCH_RECORD_GOLDEN"] == "1" {
            try rendered.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let golden = try String(contentsOfFile: path, encoding: .utf8)
        #expect(rendered == golden, "leaderboard \(format) differs from \(path)")
    }
}
