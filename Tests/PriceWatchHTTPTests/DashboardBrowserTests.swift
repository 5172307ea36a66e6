import Foundation
import PriceWatchTestKit
import Synchronization
import Testing

/// The dashboard in a real headless Chromium (Debian's `chromium`), from the running demo
/// daemon: the page's DOM after its script ran shows the demo's symbol and its alerts, the
/// browser logs no console error, and screenshots at phone and desktop widths are images of
/// those sizes with content.
@Suite(.serialized) struct DashboardBrowserTests {
    static let chromium = "/usr/bin/chromium"

    struct Browser {
        let profile: TemporaryDirectory

        /// Runs Chromium headless with `arguments`; its standard output and error.
        func run(_ arguments: [String], timeout: Duration = .seconds(90)) async throws -> (output: String, error: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: DashboardBrowserTests.chromium)
            // A profile of its own per run: a browser still closing must not receive the next URL.
            let run = UUID().uuidString
            process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                                 "--user-data-dir=\(profile.path)/profile-\(run)", "--enable-logging=stderr", "--v=0"] + arguments
            // To files, so a full pipe can never stall the browser.
            let outputPath = profile.file("\(run).out"), errorPath = profile.file("\(run).err")
            _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
            _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
            let status = try await TestProcesses.run(process, "chromium \(arguments.last ?? "")", timeout: timeout)
            let out = FileManager.default.contents(atPath: outputPath) ?? Data()
            let err = FileManager.default.contents(atPath: errorPath) ?? Data()
            #expect(status == 0, "chromium exited with \(status): \(String(decoding: err, as: UTF8.self).suffix(600))")
            return (String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
        }

        /// The DOM of `url` once it shows `marker`. `--timeout` makes Chromium dump whatever it
        /// has when the time is up, on a starved machine an empty document: such a dump is
        /// taken again, until the wait's deadline.
        func dumpDOM(_ url: String, showing marker: String) async throws -> (output: String, error: String) {
            let last = Mutex("")
            return try await waitFor("\(url) in Chromium to show \(marker); the last dump: \(last.withLock { $0.prefix(300) })",
                                     timeout: .seconds(150)) { () async throws -> (output: String, error: String)? in
                let dump = try await run(["--timeout=20000", "--dump-dom", url])
                last.withLock { $0 = dump.output }
                return dump.output.contains(marker) ? dump : nil
            }
        }
    }

    /// Console messages (the page logs none of its own, so each is an error: an uncaught
    /// exception, a failed load, a CSP violation) from Chromium's log.
    static func consoleErrors(_ log: String) -> [String] {
        log.split(separator: "\n").map(String.init).filter { $0.contains(":CONSOLE") || $0.contains("Uncaught") }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: chromium)))
    func theDemoDashboardInChromium() async throws {
        let demo = try DashboardDaemon()
        try await demo.waitUntilListening()
        _ = try await waitFor("an alert on the dashboard") { () async -> String? in
            guard let page = await demo.text("/"), page.contains("class=\"alert\"") else { return nil }
            return page
        }
        let browser = Browser(profile: try TemporaryDirectory())
        let url = demo.base + "/"

        // The DOM once the page loaded and its script ran (an open event stream keeps the
        // page from ever being idle, so the load, not virtual time, ends the wait; `--timeout`
        // only bounds it on a loaded machine).
        let dom = try await browser.dumpDOM(url, showing: "<tr data-symbol=\"AAPL\"")
        #expect(dom.output.contains("<tr data-symbol=\"AAPL\""), "the DOM shows AAPL: \(dom.output.prefix(400))")
        #expect(dom.output.contains("aapl-above-225.5"))
        // Prices as `watch` writes them, in the first render and after live updates alike.
        #expect(dom.output.range(of: #"<td class="price">[0-9]+\.[0-9]{2,8}</td>"#, options: .regularExpression) != nil,
                "the DOM's prices have at least two decimals")
        #expect(dom.output.range(of: #"<td class="price">[0-9]+(\.[0-9])?</td>"#, options: .regularExpression) == nil,
                "a price lost its decimals")
        #expect(dom.output.contains("class=\"alert\""))
        // The alert's time in a <time> element, shown by the script in the viewer's zone.
        #expect(dom.output.range(of: #"<time datetime="[0-9T:.\-]+Z">[^<]*[0-9]{2}:[0-9]{2}[^<]*</time>"#, options: .regularExpression) != nil,
                "a time element: \(dom.output.prefix(400))")
        #expect(Self.consoleErrors(dom.error).isEmpty, "console errors: \(Self.consoleErrors(dom.error))")

        // The symbol page: its chart drawn, no console error (the inline SVG passes the page's
        // content security policy).
        let symbol = try await browser.dumpDOM(demo.base + "/symbol/AAPL", showing: "<h1>AAPL</h1>")
        #expect(symbol.output.contains("<h1>AAPL</h1>"), "the symbol page's DOM: \(symbol.output.prefix(400))")
        #expect(symbol.output.contains("<svg class=\"chart chart-light\"") || symbol.output.contains("not enough data for a chart"))
        #expect(Self.consoleErrors(symbol.error).isEmpty, "console errors: \(Self.consoleErrors(symbol.error))")

        // Every other page renders in the browser without a console error (a script error, a
        // resource the content security policy refuses).
        for (path, marker) in [("/alerts", "<h1>Alerts</h1>"), ("/markets", "<h1>Markets</h1>"), ("/portfolio", "<h1>Portfolios</h1>"),
                               ("/paper", "<h1>Paper trading</h1>"), ("/silences", "<h1>Silences</h1>")] {
            let page = try await browser.dumpDOM(demo.base + path, showing: marker)
            #expect(page.output.contains(marker), "\(path) in the browser: \(page.output.prefix(300))")
            #expect(Self.consoleErrors(page.error).isEmpty, "\(path): console errors: \(Self.consoleErrors(page.error))")
        }

        // A blank page of the phone's size, to tell a rendered dashboard from an empty one.
        let blankFile = browser.profile.file("blank.png")
        _ = try await browser.run(["--hide-scrollbars", "--window-size=390,844", "--screenshot=\(blankFile)", "about:blank"])
        let blank = try #require(FileManager.default.contents(atPath: blankFile), "a blank screenshot")

        for (name, width, height) in [("phone", 390, 844), ("desktop", 1280, 900)] {
            let file = browser.profile.file("\(name).png")
            let shot = try await browser.run(["--hide-scrollbars", "--window-size=\(width),\(height)", "--timeout=20000",
                                              "--screenshot=\(file)", url])
            #expect(Self.consoleErrors(shot.error).isEmpty, "console errors: \(Self.consoleErrors(shot.error))")
            let png = try #require(FileManager.default.contents(atPath: file), "a \(name) screenshot at \(file)")
            let size = try #require(PNGSize(png), "a PNG")
            #expect(size.width == width && size.height == height, "\(name): \(size)")
            // Not a blank page: tables of text compress far worse than one colour.
            #expect(png.count > 2 * blank.count, "\(name) screenshot has content (\(png.count) bytes, blank \(blank.count))")
            if let keep = ProcessInfo.processInfo.environment["PRICEWATCH_SCREENSHOTS"] {
                try? FileManager.default.removeItem(atPath: "\(keep)/dashboard-\(name).png")
                try? FileManager.default.copyItem(atPath: file, toPath: "\(keep)/dashboard-\(name).png")
            }
        }
        #expect(try await demo.daemon.stop() == 0, "standard error: \(demo.daemon.errorLines.suffix(8))")
    }
}

/// A PNG's width and height from its IHDR chunk.
struct PNGSize: CustomStringConvertible {
    let width: Int
    let height: Int

    init?(_ data: Data) {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
        func integer(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        width = integer(16)
        height = integer(20)
    }

    var description: String { "\(width)x\(height)" }
}
