import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PriceWatchCore
import PriceWatchStore
import PriceWatchTestKit
import Testing

/// `pricewatch history` end to end: the built binary, a configuration whose yahoo provider is a
/// loopback server serving the recorded AAPL chart of 2024-10-02, and a state database that
/// holds no history (so the command backfills) or some (so it reads it).
@Suite struct HistoryCommandTests {
    let server: LoopbackHTTPServer
    let directory: TemporaryDirectory
    /// The end of the range: the day after the recorded session, so `--range 1d` is that day.
    static let end = "2024-10-03T00:00:00Z"

    init() throws {
        server = try LoopbackHTTPServer()
        directory = try TemporaryDirectory()
        let chart = try Data(contentsOf: URL(fileURLWithPath: RepositoryFiles.path("Tests/Fixtures/providers/yahoo/chart_AAPL_1m_2024-10-02.json")))
        server.route("GET", "/v8/finance/chart/AAPL") { _ in
            LoopbackResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(chart))
        }
        try FileManager.default.createDirectory(atPath: directory.file("rules.d"), withIntermediateDirectories: true)
        try directory.write("rules.d/aapl.toml", """
            [[rule]]
            id = "aapl-above-226.5"
            symbol = "AAPL"
            above = 226.5

            [[rule]]
            id = "aapl-fall-1pct"
            symbol = "AAPL"
            fall = 1
            """)
        try directory.write("pricewatch.toml", """
            state = "\(directory.file("state/pricewatch.db"))"
            [providers.yahoo]
            type = "yahoo"
            base_url = "\(server.baseURL)"
            [sinks.console]
            type = "stdout"
            """)
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> CommandRunner.Result {
        try await CommandRunner.run(["history", "--config", directory.file("pricewatch.toml")] + arguments, in: directory.path,
                                    environment: environment)
    }

    @Test func csvOfABackfilledDayIsTheBacktestDataAndBacktestsTheSame() async throws {
        let csv = try await run(["AAPL", "--range", "1d", "--end", Self.end, "--format", "csv"])
        #expect(csv.status == 0, "\(csv.standardError)")
        // Exactly the real series derived from the same chart (demo/data), row for row.
        let reference = try String(contentsOfFile: RepositoryFiles.path("demo/data/aapl-1m-2024-10-02.csv"), encoding: .utf8)
        // (The reference has CRLF line ends; the command writes LF.)
        #expect(csv.outputLines == reference.split(whereSeparator: \.isNewline).map(String.init))
        #expect(csv.standardError == "AAPL: 389 1m candles, backfilled from provider 'yahoo'\n")
        let request = try #require(server.requests(path: "/v8/finance/chart/AAPL").first)
        #expect(request.queryValue("interval") == "1m")

        // history ... --format csv > a.csv && backtest --rules r.toml --data a.csv
        try directory.write("a.csv", csv.standardOutput)
        let fromHistory = try await CommandRunner.run(["backtest", "--rules", directory.file("rules.d/aapl.toml"),
                                                       "--data", directory.file("a.csv"), "--format", "json"])
        #expect(fromHistory.status == 0, "\(fromHistory.standardError)")
        #expect(!fromHistory.outputLines.isEmpty)
        let fromReference = try await CommandRunner.run(["backtest", "--rules", directory.file("rules.d/aapl.toml"),
                                                         "--data", RepositoryFiles.path("demo/data/aapl-1m-2024-10-02.csv"), "--format", "json"])
        let withoutIDs = { (lines: [String]) in lines.map { $0.replacing(/"id":"[^"]*",?/, with: "") } }
        #expect(withoutIDs(fromHistory.outputLines) == withoutIDs(fromReference.outputLines))
    }

    /// The width and height of a PNG from its IHDR chunk, after checking the signature.
    static func pngSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count > 24, Array(bytes[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
              Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        func int(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (int(16), int(20))
    }

    /// The root element's attributes and the count of every element of an SVG file, or nil
    /// when it does not parse.
    final class SVGReader: NSObject, XMLParserDelegate {
        var root: [String: String]?
        var elements: [String: Int] = [:]
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if root == nil { root = attributes.merging(["name": name]) { first, _ in first } }
            elements[name, default: 0] += 1
        }
        static func read(_ data: Data) -> SVGReader? {
            let reader = SVGReader()
            let parser = XMLParser(data: data)
            parser.delegate = reader
            return parser.parse() ? reader : nil
        }
    }

    @Test func chartsAreWrittenAsPNGAndSVGFilesOfTheAskedSizeAndTheme() async throws {
        let png = try await run(["AAPL", "--range", "1d", "--end", Self.end, "--format", "png", "--output", directory.file("aapl.png"),
                                 "--size", "800x400"])
        #expect(png.status == 0, "\(png.standardError)")
        #expect(png.standardOutput.isEmpty)
        #expect(png.standardError.contains("AAPL: wrote a 800x400 png chart of 389 candles to \(directory.file("aapl.png"))"),
                "\(png.standardError)")
        let image = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory.file("aapl.png"))))
        let size = try #require(Self.pngSize(image), "a PNG signature and IHDR")
        #expect(size.width == 800 && size.height == 400)

        for theme in ["light", "dark"] {
            let file = directory.file("aapl-\(theme).svg")
            let svg = try await run(["AAPL", "--range", "1d", "--end", Self.end, "--format", "svg", "--output", file, "--theme", theme])
            #expect(svg.status == 0, "\(svg.standardError)")
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            let reader = try #require(SVGReader.read(data), "\(theme): the SVG parses")
            #expect(reader.root?["name"] == "svg")
            // cairo writes sizes in points; the default size is 1200x600.
            #expect(reader.root?["width"] == "1200" || reader.root?["width"] == "1200pt", "\(reader.root ?? [:])")
            #expect(reader.root?["height"] == "600" || reader.root?["height"] == "600pt")
            #expect((reader.elements["path"] ?? 0) > 10, "the price line, grid, levels and glyphs: \(reader.elements)")
            let text = String(decoding: data, as: UTF8.self)
            let background = theme == "dark" ? "fill:rgb(9.411765%,10.196078%,12.156863%)" : "fill:rgb(100%,100%,100%)"
            #expect(text.contains(background), "\(theme): the theme's background \(background)")
        }
    }

    @Test func chartFilesNeedAnOutputAValidSizeAndEnoughData() async throws {
        let noOutput = try await run(["AAPL", "--range", "1d", "--end", Self.end, "--format", "svg"])
        #expect(noOutput.status != 0)
        #expect(noOutput.standardError.contains("--format svg: expected --output FILE"), "\(noOutput.standardError)")
        let textToFile = try await run(["AAPL", "--range", "1d", "--end", Self.end, "--output", directory.file("x.txt")])
        #expect(textToFile.status != 0)
        #expect(textToFile.standardError.contains("--output: only for --format png or svg"), "\(textToFile.standardError)")
        for size in ["1200", "10x10", "1200x600x2", "axb", "99999x600"] {
            let bad = try await run(["AAPL", "--format", "png", "--output", directory.file("x.png"), "--size", size])
            #expect(bad.status != 0)
            #expect(bad.standardError.contains("--size: expected WIDTHxHEIGHT"), "\(size): \(bad.standardError)")
        }
        // A range with nothing in it: said, and no file written.
        let empty = try await run(["AAPL", "--range", "1d", "--end", "2024-09-01T00:00:00Z", "--format", "png",
                                   "--output", directory.file("empty.png")])
        #expect(empty.status != 0)
        #expect(empty.standardError.contains("not enough data for a chart"), "\(empty.standardError)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("empty.png")))
    }

    @Test func jsonLinesAreCandlesInUTC() async throws {
        let json = try await run(["AAPL", "--range", "1d", "--interval", "1m", "--end", Self.end, "--format", "json"])
        #expect(json.status == 0, "\(json.standardError)")
        #expect(json.outputLines.count == 389)
        #expect(json.outputLines.first?.hasPrefix(#"{"symbol":"AAPL","interval":"1m","time":"2024-10-02T13:30:00Z","open":"#) == true)
        #expect(json.outputLines.first?.hasSuffix(#""currency":"USD"}"#) == true)
    }

    @Test func textChartSaysWhereThePricesCameFromInTheMarketsZone() async throws {
        let text = try await run(["AAPL", "--range", "1d", "--end", Self.end, "--tz", "market", "--width", "80"],
                                 environment: ["NO_COLOR": "1"])
        #expect(text.status == 0, "\(text.standardError)")
        let lines = text.outputLines
        #expect(lines.first == "AAPL  USD  389 1m candles  2024-10-02 09:30 to 2024-10-02 15:59 America/New_York  (backfilled from provider 'yahoo')")
        #expect(lines.dropFirst().first?.hasPrefix("last 226.81  +0.27% from previous close 226.21") == true)
        #expect(lines.contains { $0.contains("┄ aapl-above-226.5: above 226.5") })
        #expect(lines.contains { $0.contains("┄ previous close 226.21") })
        #expect(lines.contains { $0.contains("09:30") && $0.contains("11:00") })
        #expect(!text.standardOutput.contains("\u{1B}["))
        // The chart (after the two summary lines) fits the width.
        #expect(lines.dropFirst(2).allSatisfy { $0.count <= 80 })
        let utc = try await run(["AAPL", "--range", "1d", "--end", Self.end, "--width", "80"], environment: ["TZ": "UTC"])
        #expect(utc.outputLines.first?.contains("2024-10-02 13:30 to 2024-10-02 19:59 UTC") == true)
    }

    @Test func storedHistoryIsReadWithoutAskingTheProvider() async throws {
        let store = try SQLiteAlertStore.open(path: directory.file("state/pricewatch.db"))
        let open = Timestamp(seconds: 1_727_875_800)
        try await store.recordQuotes((0..<30).map { minute in
            Quote(symbol: "AAPL", price: ExactDecimal(scaled: (22_500 + Int64(minute)) * 1_000_000),
                  time: Timestamp(seconds: open.seconds + Int64(minute) * 60 + 5), currency: "USD")
        })
        try store.close()
        let csv = try await run(["AAPL", "--range", "1d", "--end", "2024-10-02T20:00:00Z", "--format", "csv"])
        #expect(csv.status == 0, "\(csv.standardError)")
        #expect(csv.outputLines.count == 31)
        #expect(csv.outputLines.dropFirst().first == "AAPL,2024-10-02T13:30:00Z,225.00,,")
        #expect(csv.standardError == "AAPL: 30 1m candles, stored history\n")
        #expect(server.requests(path: "/v8/finance/chart/AAPL").isEmpty)
    }

    @Test func badArgumentsAreUsageErrors() async throws {
        #expect(try await run(["AAPL", "--range", "2w"]).status == 64)
        #expect(try await run(["AAPL", "--tz", "Mars/Olympus"]).status == 64)
        #expect(try await run(["AAPL", "--end", "yesterday"]).status == 64)
    }

    @Test func aProviderWithoutChartsAndNoStoredHistoryIsAnError() async throws {
        server.route("GET", "/v8/finance/chart/NOPE") { _ in
            LoopbackResponse(status: 404, headers: [HTTPHeader("Content-Type", "application/json")],
                             body: Array(#"{"chart":{"result":null,"error":{"code":"Not Found","description":"No data found, symbol may be delisted"}}}"#.utf8))
        }
        let result = try await run(["NOPE", "--range", "1d", "--end", Self.end])
        #expect(result.status == 1)
        #expect(result.errorLines.first?.hasPrefix("NOPE: error: no stored history of NOPE in this range, and no backfill: provider 'yahoo'") == true)
    }
}
