import Foundation
import PriceWatchTestKit
import Testing

/// Issue 29, item 10: `check` read calendars.d with fewer checks than the loader `market` and
/// the daemon use, so it passed files they reject. One reader and one set of checks serve both:
/// each file below fails `check` (exit 1, naming the file) and `market` reports the same error.
@Suite struct CalendarCheckAgreementTests {
    static let hours = "trading_days = [\"mon\", \"tue\", \"wed\", \"thu\", \"fri\"]\n[[hours]]\nopen = \"09:30\"\nclose = \"16:00\"\n"

    static let files: [(name: String, text: String, says: String)] = [
        ("replace-without-zone", "market = \"XNYS\"\nreplace = true\n" + hours, "time_zone"),
        ("zone-path", "market = \"XTST\"\ntime_zone = \"../../../../etc/passwd\"\n" + hours, "time_zone"),
        ("zone-huge", "market = \"XTST\"\ntime_zone = \"\(String(repeating: "Europe/Nowhere", count: 440))\"\n" + hours, "time_zone"),
        ("market-crlf", "market = \"XT\\r\\nST\"\ntime_zone = \"UTC\"\n" + hours, "market"),
    ]

    @Test(arguments: files.map(\.name))
    func checkRefusesWhatMarketRefuses(name: String) async throws {
        let file = try #require(Self.files.first { $0.name == name })
        let directory = try TemporaryDirectory()
        try directory.write("pricewatch.toml", "")
        try FileManager.default.createDirectory(atPath: directory.file("calendars.d"), withIntermediateDirectories: true)
        try directory.write("calendars.d/\(name).toml", file.text)
        let environment = ["PRICEWATCH_CALENDARS": RepositoryFiles.path("calendars")]

        let market = try await CommandRunner.run(["market", "--config", "pricewatch.toml"], in: directory.path, environment: environment)
        let marketErrors = market.errorLines.filter { $0.contains("\(name).toml") && $0.contains("error") }
        #expect(!marketErrors.isEmpty, "market: \(market.standardError)")

        let check = try await CommandRunner.run(["check", "--config", "pricewatch.toml"], in: directory.path, environment: environment)
        #expect(check.status == 1, "check passed a file market refuses: \(check.standardOutput) \(check.standardError)")
        let checkErrors = check.errorLines.filter { $0.contains("\(name).toml") && $0.contains("error") }
        #expect(!checkErrors.isEmpty, "\(check.standardError)")
        #expect(checkErrors.contains { $0.contains(file.says) }, "\(checkErrors)")
        #expect(Set(checkErrors) == Set(marketErrors), "check: \(checkErrors)\nmarket: \(marketErrors)")
        for line in check.errorLines + market.errorLines {
            #expect(line.utf8.count < 400, "an error line of \(line.utf8.count) bytes: \(line.prefix(200))")
            #expect(!line.contains("\r"))
        }
    }
}
