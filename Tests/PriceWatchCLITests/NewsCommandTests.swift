import Foundation
import PriceWatchCore
import PriceWatchTestKit
import Testing

/// `pricewatch news` end to end: the built binary against a loopback server standing in for
/// Yahoo Finance's per-symbol headline feed (`--base-url`), serving the recorded-shape answers
/// of `Tests/Fixtures/providers/yahoo-news/` by the `s` of the query.
@Suite struct NewsCommandTests {
    let server: LoopbackHTTPServer
    let directory: TemporaryDirectory

    static let feedPath = "/rss/2.0/headline"

    init() throws {
        server = try LoopbackHTTPServer()
        directory = try TemporaryDirectory()
        let aapl = try Self.fixture("headline_AAPL.xml")
        let msft = try Self.fixture("headline_MSFT_duplicate_guids.xml")
        let empty = try Self.fixture("headline_NOSUCHTICKER_empty_channel.xml")
        server.route("GET", Self.feedPath) { request in
            switch request.queryValue("s") {
            case "AAPL": aapl
            case "MSFT": msft
            case "NOSUCHTICKER", "ASML": empty
            default: .status(404)
            }
        }
    }

    static func fixture(_ file: String) throws -> LoopbackResponse {
        let data = try Data(contentsOf: URL(fileURLWithPath: RepositoryFiles.path("Tests/Fixtures/providers/yahoo-news/\(file)")))
        return LoopbackResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/xml")], body: Array(data))
    }

    func run(_ arguments: [String], baseURL: String? = nil) async throws -> CommandRunner.Result {
        try await CommandRunner.run(["news", "--base-url", baseURL ?? server.baseURL] + arguments, in: directory.path)
    }

    static let aaplText = [
        "AAPL",
        "  2026-11-26T14:03:00Z  -  Apple Suppliers Signal a Stronger Holiday Quarter",
        "    https://finance.yahoo.com/news/apple-suppliers-signal-stronger-holiday-140300512.html?.tsrc=rss",
        "  2026-11-26T13:15:00Z  -  Analyst Raises Apple Target on Services Growth & Margins",
        "    https://finance.yahoo.com/news/analyst-raises-apple-target-services-131500774.html?.tsrc=rss",
        "  2026-11-26T11:40:00Z  -  2 Tech Stocks Make Up a Third of This Famous Portfolio",
        "    https://www.fool.com/investing/2026/11/26/2-tech-stocks-a-third-of-the-portfolio/?.tsrc=rss",
        "  2026-11-26T09:30:12Z  -  Tech Stocks Lead Premarket Gains",
        "    https://finance.yahoo.com/video/tech-stocks-lead-premarket-093012345.html?.tsrc=rss",
        "  2026-11-25T22:18:04Z  Bloomberg  EU Presses Apple on App Store Payment Rules",
        "    https://finance.yahoo.com/news/eu-presses-apple-app-store-payments-221804399.html?.tsrc=rss",
    ]

    static let msftText = [
        "MSFT",
        "  2026-11-26T15:02:00Z  -  Microsoft Adds Three Cloud Regions",
        "    https://finance.yahoo.com/news/microsoft-adds-cloud-regions-150200118.html?.tsrc=rss",
        "  2026-11-26T14:10:00Z  -  AI Spending in Focus for Microsoft Investors",
        "    https://finance.yahoo.com/news/ai-spending-in-focus-for-microsoft-141000233.html?.tsrc=rss",
        "  2026-11-26T12:00:00Z  -  The Week's Most Traded Large Caps",
        "    https://www.investors.com/news/technology/most-traded-large-caps-this-week/?.tsrc=rss",
    ]

    // MARK: output

    @Test func textListsEachSymbolsHeadlinesWithTimeSourceTitleAndLink() async throws {
        let result = try await run(["AAPL", "MSFT", "AAPL"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty)
        #expect(result.outputLines == Self.aaplText + Self.msftText)
        // One request per symbol (the repeated one asked once), to the feed's address, as a browser.
        let requests = server.requests(path: Self.feedPath)
        #expect(requests.map(\.target) == ["\(Self.feedPath)?s=AAPL&region=US&lang=en-US", "\(Self.feedPath)?s=MSFT&region=US&lang=en-US"])
        #expect(requests.allSatisfy { $0.method == "GET" && $0.header("User-Agent")?.hasPrefix("Mozilla/5.0") == true },
                "\(requests.map { $0.header("User-Agent") ?? "none" })")
    }

    @Test func aSymbolIsPercentEncodedInTheQuery() async throws {
        let result = try await run(["^GSPC", "BRK.B"])
        #expect(result.status == 1)
        #expect(server.requests(path: Self.feedPath).map(\.query) == ["s=%5EGSPC&region=US&lang=en-US", "s=BRK.B&region=US&lang=en-US"])
        #expect(server.requests(path: Self.feedPath).compactMap { $0.queryValue("s") } == ["^GSPC", "BRK.B"])
    }

    @Test func headlinesAreNewestFirstWhateverTheFeedsOrderAndLimitKeepsTheNewest() async throws {
        func item(_ title: String, _ date: String) -> String {
            "<item><guid>\(title)</guid><link>https://example.com/\(title)</link><pubDate>\(date)</pubDate><title>\(title)</title></item>"
        }
        let feed = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss version=\"2.0\"><channel>"
            + item("oldest", "Tue, 24 Nov 2026 08:00:00 +0000") + item("newest", "Thu, 26 Nov 2026 10:00:00 -0500")
            + item("middle", "Wed, 25 Nov 2026 23:00:00 GMT") + "</channel></rss>"
        server.route("GET", Self.feedPath) { _ in .text(feed) }
        let all = try await run(["X"])
        #expect(all.status == 0, "\(all.standardError)")
        #expect(all.outputLines.filter { $0.hasPrefix("  2026") } == [
            "  2026-11-26T15:00:00Z  -  newest", "  2026-11-25T23:00:00Z  -  middle", "  2026-11-24T08:00:00Z  -  oldest",
        ])
        let two = try await run(["--limit", "2", "X"])
        #expect(two.status == 0, "\(two.standardError)")
        #expect(two.outputLines == [
            "X", "  2026-11-26T15:00:00Z  -  newest", "    https://example.com/newest",
            "  2026-11-25T23:00:00Z  -  middle", "    https://example.com/middle",
        ])
    }

    @Test func limitIsPerSymbolAndDefaultsToTen() async throws {
        let items = (0..<12).map { index in
            "<item><link>https://example.com/\(index)</link><pubDate>Thu, 26 Nov 2026 \(10 + index):00:00 +0000</pubDate><title>story \(index)</title></item>"
        }.joined()
        let feed = "<rss version=\"2.0\"><channel>\(items)</channel></rss>"
        server.route("GET", Self.feedPath) { _ in .text(feed) }
        let byDefault = try await run(["X", "Y"])
        #expect(byDefault.status == 0, "\(byDefault.standardError)")
        #expect(byDefault.outputLines.filter { $0.hasPrefix("  2026") }.count == 20, "\(byDefault.standardOutput)")
        #expect(byDefault.outputLines.filter { $0.hasSuffix("story 2") }.count == 2)
        #expect(!byDefault.outputLines.contains { $0.hasSuffix("story 1") || $0.hasSuffix("story 0") })
        let one = try await run(["--limit", "1", "--format", "json", "X", "Y"])
        #expect(one.outputLines.map { $0.components(separatedBy: "\"title\":").count - 1 } == [1, 1], "\(one.standardOutput)")
        #expect(one.outputLines.allSatisfy { $0.contains("\"title\":\"story 11\"") })
    }

    @Test func jsonIsOneObjectPerSymbolWithAHeadlinesArray() async throws {
        let result = try await run(["--format", "json", "--limit", "2", "AAPL", "NOSUCHTICKER"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines == [
            #"{"symbol":"AAPL","feed":"yahoo","headlines":["#
                + #"{"time":"2026-11-26T14:03:00Z","source":null,"title":"Apple Suppliers Signal a Stronger Holiday Quarter","#
                + #""link":"https://finance.yahoo.com/news/apple-suppliers-signal-stronger-holiday-140300512.html?.tsrc=rss","#
                + #""guid":"3f1c2a9e-7b4d-3e58-9a61-0c2d4e6f8a10","#
                + #""summary":"Shares of the iPhone maker rose in early trading after suppliers in Asia reported stronger November orders than analysts had expected."},"#
                + #"{"time":"2026-11-26T13:15:00Z","source":null,"title":"Analyst Raises Apple Target on Services Growth & Margins","#
                + #""link":"https://finance.yahoo.com/news/analyst-raises-apple-target-services-131500774.html?.tsrc=rss","#
                + #""guid":"8d0e5b47-21c9-3a7f-b3e2-5f6a7b8c9d01","#
                + #""summary":"The company’s services segment is on track for another record year, according to a note from a brokerage that raised its price target."}]}"#,
            #"{"symbol":"NOSUCHTICKER","feed":"yahoo","headlines":[]}"#,
        ])
        for line in result.outputLines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not JSON: \(line)")
        }
    }

    @Test func jsonNamesTheOutletAndANullSummary() async throws {
        let result = try await run(["--format", "json", "AAPL"])
        #expect(result.status == 0, "\(result.standardError)")
        let line = try #require(result.outputLines.first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let headlines = try #require(object["headlines"] as? [[String: Any]])
        #expect(headlines.count == 5)
        #expect(headlines.last?["source"] as? String == "Bloomberg")
        #expect(headlines.last?["summary"] as? String
                == "(Bloomberg) -- European regulators asked the company for more detail on how it plans to open its app store to rival payment systems.")
        #expect(headlines[3]["summary"] is NSNull, "the item without <description>: \(headlines[3])")
    }

    @Test func aSymbolWithoutHeadlinesSaysSo() async throws {
        let result = try await run(["ASML", "MSFT"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty)
        #expect(result.outputLines == ["no headlines for ASML"] + Self.msftText)
    }

    @Test func timesAreInTheZoneOfTz() async throws {
        let result = try await run(["--tz", "America/New_York", "--limit", "1", "AAPL"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines.dropFirst().first == "  2026-11-26 09:03 -05:00  -  Apple Suppliers Signal a Stronger Holiday Quarter")
    }

    // MARK: failures

    @Test func anHTMLAnswerIsAnErrorAndTheOtherSymbolsAreStillPrinted() async throws {
        let msft = try Self.fixture("headline_MSFT_duplicate_guids.xml")
        server.route("GET", Self.feedPath) { request in
            request.queryValue("s") == "AAPL" ? .html("<!DOCTYPE html><html><body>Please enable cookies</body></html>") : msft
        }
        let text = try await run(["AAPL", "MSFT"])
        #expect(text.status == 1)
        #expect(text.errorLines == ["yahoo news feed for AAPL: error: expected an RSS document (XML), found an HTML page"])
        #expect(text.outputLines == Self.msftText)
        let json = try await run(["--format", "json", "AAPL", "MSFT"])
        #expect(json.status == 1)
        #expect(json.errorLines == text.errorLines)
        #expect(json.outputLines.count == 1)
        #expect(json.outputLines.first?.hasPrefix(#"{"symbol":"MSFT","feed":"yahoo","headlines":[{"#) == true, "\(json.standardOutput)")
    }

    @Test(arguments: [(404, "Not Found"), (500, "Internal Server Error")])
    func anErrorStatusIsAnErrorAndTheOtherSymbolsAreStillPrinted(status: Int, body: String) async throws {
        let aapl = try Self.fixture("headline_AAPL.xml")
        server.route("GET", Self.feedPath) { request in
            request.queryValue("s") == "AAPL" ? aapl : .status(status, body: body)
        }
        let result = try await run(["NOPE", "AAPL"])
        #expect(result.status == 1)
        #expect(result.errorLines == ["yahoo news feed for NOPE: error: HTTP \(status): \(body)"])
        #expect(result.outputLines == Self.aaplText)
    }

    @Test func aRefusedConnectionIsAnErrorPerSymbol() async throws {
        let refusing = try RefusingPort()
        let result = try await run(["AAPL", "MSFT"], baseURL: refusing.baseURL)
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.errorLines.count == 2, "\(result.standardError)")
        for (line, symbol) in zip(result.errorLines, ["AAPL", "MSFT"]) {
            #expect(line.hasPrefix("yahoo news feed for \(symbol): error: GET \(refusing.baseURL)\(Self.feedPath): connection refused"), "\(line)")
            #expect(!line.contains("?s="), "the query is not shown: \(line)")
        }
    }

    // MARK: the configuration's symbols

    @Test func withoutSymbolsTheConfigurationsRuleSymbolsAreFetched() async throws {
        try ReplayDaemonFiles.write(in: directory, prices: ["10"], rules: """
            [[rule]]
            id = "msft-above"
            symbol = "MSFT"
            above = 500
            [[rule]]
            id = "pair"
            symbols = ["NOSUCHTICKER", "AAPL"]
            below = 1
            """)
        let result = try await run(["--config", "pricewatch.toml", "--limit", "1"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(server.requests(path: Self.feedPath).compactMap { $0.queryValue("s") } == ["AAPL", "MSFT", "NOSUCHTICKER"])
        #expect(result.outputLines == Array(Self.aaplText.prefix(3)) + Array(Self.msftText.prefix(3)) + ["no headlines for NOSUCHTICKER"])
    }

    @Test func withoutSymbolsOrRulesNothingIsFetched() async throws {
        try ReplayDaemonFiles.write(in: directory, prices: ["10"], rules: "")
        let result = try await run(["--config", "pricewatch.toml"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.errorLines == ["pricewatch.toml: no rules"])
        #expect(result.standardOutput.isEmpty)
        #expect(server.requests.isEmpty)
    }

    @Test func withoutSymbolsABrokenConfigurationIsAnError() async throws {
        let result = try await run(["--config", "missing.toml"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("missing.toml"), "\(result.standardError)")
        #expect(server.requests.isEmpty)
    }

    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/etc/pricewatch/pricewatch.toml"),
                   "a configuration at the default path gives the symbols"))
    func withoutSymbolsOrAnyConfigurationItSaysToNameThem() async throws {
        let result = try await run([])
        #expect(result.status == 1)
        #expect(result.errorLines == [
            "error: no symbol given, and no configuration at /etc/pricewatch/pricewatch.toml to take its rules' symbols from (pricewatch news AAPL)",
        ])
        #expect(server.requests.isEmpty)
    }

    // MARK: usage

    @Test(arguments: [["--limit", "0", "AAPL"], ["--tz", "market", "AAPL"], ["--tz", "Mars/Olympus", "AAPL"], ["--format", "csv", "AAPL"], ["AAPL MSFT"]])
    func usageErrorsExit64(arguments: [String]) async throws {
        let result = try await run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.standardError)")
        #expect(server.requests.isEmpty)
    }

    @Test func aBaseURLThatIsNotHTTPIsAUsageError() async throws {
        let result = try await run(["AAPL"], baseURL: "file:///etc/passwd")
        #expect(result.status == 64)
        #expect(result.standardError.contains("--base-url: expected an http:// or https:// URL"), "\(result.standardError)")
    }
}
