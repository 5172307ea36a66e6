import Foundation
import PriceWatchCore
import PriceWatchPresentation
import PriceWatchCurl
import PriceWatchSinks
import PriceWatchTestKit
import Testing

/// A digest with ten charts through the email sink to the real SMTP server: the MIME parses
/// strictly with every `cid:` resolved, it stays under 500 KB, and headless Chromium shows
/// the charts (the line colours of both themes are on the screenshot).
@Suite(.serialized) struct DigestEmailTests {
    /// Ten charts: the reviewed reference images of the chart tests, light and dark.
    static func digest() throws -> Digest {
        let light = try [UInt8](Data(contentsOf: URL(fileURLWithPath: RepositoryFiles.path("Tests/Fixtures/charts/aapl-2024-10-02-light.png"))))
        let dark = try [UInt8](Data(contentsOf: URL(fileURLWithPath: RepositoryFiles.path("Tests/Fixtures/charts/aapl-2024-10-02-dark.png"))))
        let symbols = ["AAPL", "MSFT", "BTC-USD", "ETH-USD", "NVDA", "IBM", "AMZN", "GOOG", "^GSPC", "EURUSD=X"]
        let start = try #require(Timestamp(parsing: "2024-09-30T12:00:00Z"))
        let due = try #require(Timestamp(parsing: "2024-10-07T12:00:00Z"))
        var candles: [String: [Candle]] = [:]
        for (index, symbol) in symbols.enumerated() {
            let open = ExactDecimal(scaled: 100 * ExactDecimal.unit)
            let close = ExactDecimal(scaled: Int64(95 + index) * ExactDecimal.unit)
            candles[symbol] = [Candle(time: Timestamp(seconds: start.seconds + 86_400), interval: .oneDay,
                                      open: open, high: open, low: close, close: close)]
        }
        let composer = DigestComposer(name: "weekly", period: .week, timeZone: "Europe/Berlin", topCount: 5)
        let window = try #require(composer.window(due: due))
        let charts = symbols.enumerated().map { DigestChart(symbol: $0.element, png: $0.offset.isMultiple(of: 2) ? light : dark) }
        return composer.compose(due: due, window: window, candles: candles, alerts: [], marketHours: AlwaysOpenMarkets(),
                                charts: charts)
    }

    struct Check: Decodable {
        struct Screenshot: Decodable {
            var width: Int
            var height: Int
            var linePixels: [String: Int]
        }

        var parseError: String?
        var contentType: String?
        var structure: [String]?
        var text: String?
        var references: Int?
        var unresolved: [String]?
        var external: [String]?
        var scripts: Int?
        var bytes: Int?
        var screenshot: Screenshot?
    }

    @Test func aDigestWithTenChartsArrivesStrictlyParsedAndRendersWithItsCharts() async throws {
        let server = try await EmailTestServer(.startTLS, authenticated: true)
        var options = AdapterOptions([
            "url": .string(server.url),
            "from": .string("Price Watch <alerts@example.com>"),
            "to": .strings(["ops@example.com"]),
        ])
        options["username"] = .string(EmailTestServer.username)
        options["password"] = .secret(Secret(value: EmailTestServer.password, origin: "credential smtp-password"))
        options["ca_file"] = .path(server.caFile)
        options["timeout"] = .duration(try #require(RuleDuration(seconds: 30)))
        let (settings, problems) = EmailSettings.parse(options)
        let sink = EmailSink(name: "ops", settings: try #require(settings, "\(problems)"), transport: CurlMailTransport(),
                             now: ManualWallClock(try #require(Timestamp(parsing: "2024-10-07T12:00:05Z"))).function)
        let digest = try Self.digest()
        let notification = OutgoingNotification(id: NotificationID.make(kind: .digest, parts: ["weekly", "2024-10-07"]),
                                                time: digest.window.upperBound, content: DigestNotification(digest))
        try await sink.deliver(notification)

        let received = try server.received()
        try #require(received.count == 1, "the server received \(received.count) messages")
        #expect(received[0].parseError == nil, "the server's strict parser refused the digest: \(received[0].parseError ?? "")")
        print("digest email with 10 charts: \(received[0].raw.count) bytes")
        #expect(received[0].raw.count < 500_000, "the digest takes \(received[0].raw.count) bytes")

        let work = try TemporaryDirectory()
        let eml = work.file("digest.eml")
        _ = FileManager.default.createFile(atPath: eml, contents: Data(received[0].raw))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [RepositoryFiles.path("Tests/Fixtures/digest/check_digest_mail.py"), eml, work.path]
        let output = Pipe()
        process.standardOutput = output
        let status = try await TestProcesses.run(process, "the digest mail check (strict parse, Chromium screenshot)", timeout: .seconds(300))
        let data = output.fileHandleForReading.readDataToEndOfFile()
        #expect(status == 0, "check_digest_mail.py exited with \(status)")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let check = try decoder.decode(Check.self, from: data)
        #expect(check.parseError == nil, "\(check.parseError ?? "")")
        #expect(check.contentType == "multipart/related")
        #expect(check.structure == ["multipart/related", "multipart/alternative", "text/plain", "text/html"] + Array(repeating: "image/png", count: 10))
        #expect(check.references == 10)
        #expect(check.unresolved == [], "unresolved cid: references \(check.unresolved ?? [])")
        #expect(check.external == [] && check.scripts == 0)
        // The plain part is complete without the pictures.
        #expect(check.text == DigestNotification(digest).message().text.replacingOccurrences(of: "\r\n", with: "\n"))
        let screenshot = try #require(check.screenshot)
        // Five light and five dark charts, each with a price line hundreds of pixels long.
        #expect((screenshot.linePixels["light"] ?? 0) > 5 * 500, "light line pixels: \(screenshot.linePixels)")
        #expect((screenshot.linePixels["dark"] ?? 0) > 5 * 500, "dark line pixels: \(screenshot.linePixels)")
    }
}
