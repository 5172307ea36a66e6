import PriceWatchCore
import PriceWatchCurl
import PriceWatchApp
import PriceWatchTestKit
import Testing

/// The factory's `webhook` case: a configured table becomes a working sink, and settings the
/// configuration schema cannot judge (header names, line breaks in values) become diagnostics
/// that show no header value.
@Suite struct WebhookAdapterFactoryTests {
    static func duration(_ seconds: Int64) throws -> RuleDuration { try #require(RuleDuration(seconds: seconds)) }

    static func configuration(_ options: AdapterOptions) throws -> Configuration {
        Configuration(mainFile: "/etc/pricewatch/pricewatch.toml", statePath: "/tmp/unused.db",
                      interval: try duration(60), retention: try duration(86_400), providers: [],
                      sinks: [SinkConfiguration(name: "ops", type: "webhook", format: options.string("format"), options: options)],
                      rules: [])
    }

    @Test func aWebhookTableBecomesASinkThatDelivers() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/hook") { _ in .status(204) }
        let options = AdapterOptions([
            "url": .string(server.baseURL + "/hook"),
            "format": .string("slack"),
            "headers": .stringTable([(key: "X-Team", value: "ops")]),
            "timeout": .duration(try Self.duration(5)),
            "secret": .secret(Secret(value: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", origin: "env HOOK")),
        ])
        let clock = ManualWallClock()
        let (sinks, diagnostics) = AdapterFactory.sinks(for: try Self.configuration(options), transport: CurlHTTPTransport(),
                                                     mailTransport: CurlMailTransport(), wallClock: clock.function)
        #expect(diagnostics.isEmpty)
        let sink = try #require(sinks["ops"])
        #expect(sink.identity == "webhook/ops")
        let alert = Alert(id: "abc123", rule: "r", symbol: "AAPL", provider: nil, condition: "above 200",
                          price: ExactDecimal("201") ?? .zero, currency: "USD", time: Timestamp(seconds: 1_727_875_800),
                          base: nil, change: nil, direction: nil, message: "AAPL 201.00 USD: above 200 (rule r)")
        try await sink.deliver(alert)
        let request = try #require(server.requests.first)
        #expect(request.bodyText == #"{"text":"AAPL 201.00 USD: above 200 (rule r)"}"#)
        #expect(request.header("X-Team") == "ops")
        #expect(request.header("webhook-timestamp") == String(clock.now.seconds))
        #expect(request.header("webhook-signature")?.hasPrefix("v1,") == true)
    }

    @Test func headersThatCannotBeSentAreDiagnosedWithoutTheirValue() throws {
        let options = AdapterOptions([
            "url": .string("https://hooks.example.com/x"),
            "headers": .stringTable([(key: "X-Token", value: "s3cret\nX-Evil: 1")]),
        ])
        let (sinks, diagnostics) = AdapterFactory.sinks(for: try Self.configuration(options), transport: CurlHTTPTransport(), mailTransport: CurlMailTransport())
        #expect(sinks.isEmpty)
        #expect(diagnostics.map(\.description) == [
            "/etc/pricewatch/pricewatch.toml: error: sinks.ops: headers: the value of header 'X-Token' contains a line break or a control character",
        ])
    }
}
