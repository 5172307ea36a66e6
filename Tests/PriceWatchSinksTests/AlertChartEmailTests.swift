import Foundation
import PriceWatchCore
import PriceWatchCurl
import PriceWatchSinks
import PriceWatchTestKit
import Testing

/// `chart = true` on the email sink: a single alert's email carries the chart inline
/// (`multipart/related`, its `cid:` resolved, strictly parsed by the real SMTP server) and its
/// plain text is the same as without a chart; with no picture to draw the alert goes as usual.
@Suite(.serialized) struct AlertChartEmailTests {
    struct FixedChart: AlertChartProvider {
        let png: [UInt8]?
        func chart(for alert: Alert) async -> NotificationAttachment? {
            png.map { NotificationAttachment(filename: "chart-\(alert.symbol).png", contentType: "image/png", bytes: $0) }
        }
    }

    static func sink(_ server: EmailTestServer, charts: (any AlertChartProvider)?) throws -> EmailSink {
        var options = AdapterOptions(["url": .string(server.url), "from": .string("Price Watch <alerts@example.com>"),
                                      "to": .strings(["ops@example.com"])])
        options["username"] = .string(EmailTestServer.username)
        options["password"] = .secret(Secret(value: EmailTestServer.password, origin: "credential smtp-password"))
        options["ca_file"] = .path(server.caFile)
        options["timeout"] = .duration(try #require(RuleDuration(seconds: 30)))
        let (settings, problems) = EmailSettings.parse(options)
        return EmailSink(name: "ops", settings: try #require(settings, "\(problems)"), transport: CurlMailTransport(),
                         now: ManualWallClock(Timestamp(seconds: 1_727_880_000)).function, charts: charts)
    }

    static func alert() -> Alert {
        Alert(id: "9832b35e-8111-78d7-1a0f-c6142fd4b99c", rule: "aapl-above-225.5", symbol: "AAPL", provider: "yahoo",
              condition: "above 225.5", price: ExactDecimal("225.70") ?? .zero, currency: "USD", time: Timestamp(seconds: 1_727_875_800),
              base: nil, change: nil, direction: nil, message: "AAPL 225.70 USD: above 225.5 (rule aapl-above-225.5)")
    }

    /// The text/plain part and the MIME structure, as Python's strict parser sees them.
    static func parse(_ raw: [UInt8]) async throws -> (structure: String, plain: String) {
        let work = try TemporaryDirectory()
        let eml = work.file("alert.eml")
        _ = FileManager.default.createFile(atPath: eml, contents: Data(raw))
        let script = """
            import email, email.policy, sys
            message = email.message_from_bytes(open(sys.argv[1], 'rb').read(), policy=email.policy.strict)
            print(','.join(part.get_content_type() for part in message.walk()))
            ids = {part['Content-ID'] for part in message.walk() if part['Content-ID']}
            html = next((part.get_content() for part in message.walk() if part.get_content_type() == 'text/html'), '')
            for ref in [piece.split('"')[0] for piece in html.split('src="cid:')[1:]]:
                assert '<' + ref + '>' in ids, 'unresolved cid ' + ref
            sys.stdout.write(next(part.get_content() for part in message.walk() if part.get_content_type() == 'text/plain'))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, eml]
        let output = Pipe()
        process.standardOutput = output
        let status = try await TestProcesses.run(process, "the strict parse of an alert email", timeout: .seconds(120))
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(status == 0, "the strict parse failed: \(text)")
        let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        return (String(lines.first ?? ""), lines.count > 1 ? String(lines[1]) : "")
    }

    @Test func aChartTravelsInlineAndThePlainTextStaysTheSame() async throws {
        let png = try [UInt8](Data(contentsOf: URL(fileURLWithPath: RepositoryFiles.path("Tests/Fixtures/charts/aapl-2024-10-02-light.png"))))
        let server = try await EmailTestServer(.startTLS, authenticated: true)
        try await Self.sink(server, charts: FixedChart(png: png)).deliver(Self.alert())
        try await Self.sink(server, charts: nil).deliver(Self.alert())
        try await Self.sink(server, charts: FixedChart(png: nil)).deliver(Self.alert())
        let received = try server.received()
        try #require(received.count == 3)
        #expect(received.allSatisfy { $0.parseError == nil }, "\(received.map(\.parseError))")
        let charted = try await Self.parse(received[0].raw)
        let plain = try await Self.parse(received[1].raw)
        let noPicture = try await Self.parse(received[2].raw)
        #expect(charted.structure == "multipart/related,multipart/alternative,text/plain,text/html,image/png", "\(charted.structure)")
        #expect(plain.structure == "multipart/alternative,text/plain,text/html")
        #expect(noPicture.structure == plain.structure, "nothing to draw: the usual email")
        #expect(charted.plain == plain.plain && plain.plain.contains("AAPL 225.70 USD: above 225.5"), "\(charted.plain)")
        #expect(String(decoding: received[0].raw, as: UTF8.self).contains("Subject: AAPL 225.70 USD: above 225.5 (rule aapl-above-225.5)"))
    }
}
