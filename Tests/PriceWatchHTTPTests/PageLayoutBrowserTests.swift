import Foundation
import PriceWatchTestKit
import Testing

/// Every page of the endpoint in a real headless Chromium, driven over the DevTools protocol
/// (`Tests/Fixtures/browser/page_layout.py`): at a phone's size (390x844) and a desktop's
/// (1280x900), light and dark, no page scrolls sideways and no element reaches past the
/// viewport (tables become cards on the phone), the dark scheme is dark, and the browser
/// reports no console error. Each view's screenshot is checked as a PNG of the view's size;
/// with `PRICEWATCH_SCREENSHOTS=DIR` they are kept there (`docs/screenshots` is made so).
@Suite(.serialized) struct PageLayoutBrowserTests {
    struct View: Decodable {
        let page: String
        let view: String
        let width: Int
        let errors: [String]
        let screenshot: String
        let scrollWidth: Int
        let clientWidth: Int
        let overflowing: [String]
        let darkBackground: Bool
        let crosshair: String?
        let markerNote: String?
    }

    static let pages = [("watchlist", "/"), ("symbol", "/symbol/AAPL"), ("alerts", "/alerts"), ("markets", "/markets"),
                        ("portfolios", "/portfolio"), ("portfolio", "/portfolio/core"), ("paper", "/paper"),
                        ("paper-account", "/paper/alice"), ("silences", "/silences")]

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: DashboardBrowserTests.chromium)))
    func everyPageFitsAPhoneAndADesktopInBothSchemes() async throws {
        let demo = try DashboardDaemon(rows: 12)
        try demo.directory.write("portfolios.d/core.toml",
                                 "currency = \"USD\"\n[[lot]]\nsymbol = \"AAPL\"\nquantity = 10\nprice = 200\ncurrency = \"USD\"\ndate = 2024-01-02\n")
        _ = chmod(demo.directory.file("portfolios.d/core.toml"), 0o640)
        try await demo.waitUntilListening()
        func paper(_ arguments: [String]) async throws -> CommandRunner.Result {
            try await CommandRunner.run(["paper"] + arguments + ["--config", "pricewatch.toml"], in: demo.directory.path)
        }
        #expect(try await paper(["open", "alice", "--cash", "10000", "--currency", "USD"]).status == 0)
        #expect(try await paper(["buy", "alice", "AAPL", "10", "--limit", "1000", "--order-id", "o1"]).status == 0)
        // Pages with what they are for: an alert fired, the order filled, the file replayed.
        _ = try await waitFor("an alert on the dashboard and alice's order filled") { () async throws -> Bool? in
            guard let page = await demo.text("/"), page.contains("class=\"alert\""),
                  let account = await demo.text("/paper/alice"), account.contains("filled") else { return nil }
            return true
        }

        let output = try TemporaryDirectory()
        let script = RepositoryFiles.path("Tests/Fixtures/browser/page_layout.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script, DashboardBrowserTests.chromium, output.file("profile"), output.path, "300"]
            + Self.pages.map { "\($0.0)=\(demo.base)\($0.1)" }
        // To files, so a full pipe can never stall the script.
        let outputPath = output.file("views.jsonl"), errorPath = output.file("stderr")
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        // 36 views take about 140 s beside a busy suite; with both cores also taken by stress-ng,
        // 150 s was reached at view 30.
        let status = try await TestProcesses.run(process, "page_layout.py", timeout: .seconds(330))
        let standardOutput = String(decoding: FileManager.default.contents(atPath: outputPath) ?? Data(), as: UTF8.self)
        let standardError = String(decoding: FileManager.default.contents(atPath: errorPath) ?? Data(), as: UTF8.self)
        #expect(status == 0, "page_layout.py exited with \(status): \(standardError.suffix(800))")

        let views = try standardOutput.split(separator: "\n").map { try JSONDecoder().decode(View.self, from: Data($0.utf8)) }
        #expect(views.count == Self.pages.count * 4, "four views of each page: \(views.map { "\($0.page) \($0.view)" })")
        let keep = ProcessInfo.processInfo.environment["PRICEWATCH_SCREENSHOTS"]
        for view in views {
            let name = "\(view.page) \(view.view)"
            #expect(view.scrollWidth <= view.clientWidth, "\(name) scrolls sideways: \(view.scrollWidth) px wide in \(view.clientWidth)")
            #expect(view.overflowing.isEmpty, "\(name): elements past the right edge: \(view.overflowing)")
            #expect(view.errors.isEmpty, "\(name): console errors: \(view.errors)")
            #expect(view.darkBackground == view.view.hasSuffix("-dark"), "\(name): dark background \(view.darkBackground)")
            if view.page == "symbol" {
                // The crosshair reads a time and a price where the pointer is; a tapped alert
                // marker shows its rule and message.
                let readout = try #require(view.crosshair, "\(name): a crosshair over the chart")
                #expect(readout.range(of: #"[0-9]{2}:[0-9]{2}.* · [0-9]+\.[0-9]{2}$"#, options: .regularExpression) != nil,
                        "\(name): the crosshair reads \(readout)")
                #expect(view.markerNote?.range(of: #"^aapl-[a-z0-9.-]+: AAPL [0-9]"#, options: .regularExpression) != nil,
                        "\(name): the marker's note: \(view.markerNote ?? "none")")
            }
            let png = try #require(FileManager.default.contents(atPath: view.screenshot), "\(name): a screenshot")
            let size = try #require(PNGSize(png), "\(name): a PNG")
            #expect(size.width == view.width, "\(name): \(size)")
            #expect(png.count > 5_000, "\(name): a screenshot with content (\(png.count) bytes)")
            if let keep {
                let target = "\(keep)/\(view.page)-\(view.view).png"
                try? FileManager.default.removeItem(atPath: target)
                try FileManager.default.copyItem(atPath: view.screenshot, toPath: target)
            }
        }
        #expect(try await demo.daemon.stop() == 0, "standard error: \(demo.daemon.errorLines.suffix(8))")
    }
}
