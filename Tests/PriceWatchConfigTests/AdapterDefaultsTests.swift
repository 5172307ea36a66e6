import Foundation
import PriceWatchApp
import PriceWatchConfig
import PriceWatchCore
import PriceWatchProviders
import PriceWatchSinks
import Testing

/// Defaults live in one place: each optional key's default is declared once, in its type's
/// schema; the loader fills it in; the adapter uses exactly that value; the reference page
/// shows it from the same declaration.
@Suite struct AdapterDefaultsTests {
    /// Every optional field of every type: its default is what the loader hands the adapter
    /// when the key is not written, and a written value is never replaced.
    @Test func theLoaderFillsEveryOptionalFieldsDefaultAndKeepsWrittenValues() throws {
        let schemas = AdapterCatalog.schemas.providers + AdapterCatalog.schemas.sinks
        let withDefaults = schemas.flatMap { schema in schema.fields.filter { $0.defaultValue != nil }.map { (schema.type, $0.key) } }
        #expect(withDefaults.map { "\($0.0).\($0.1)" }
            == ["yahoo.user_agent", "stdout.format", "webhook.format", "webhook.timeout", "email.tls", "email.timeout", "email.chart",
                   "telegram.silent", "telegram.api_url", "telegram.chart", "telegram.timeout", "pushover.api_url", "pushover.chart",
                   "pushover.timeout", "gotify.timeout", "matrix.chart", "matrix.timeout",
                   "mqtt.port", "mqtt.tls", "mqtt.prefix", "mqtt.discovery", "mqtt.discovery_prefix", "mqtt.timeout"])
        for schema in schemas {
            let filled = schema.filling(AdapterOptions())
            for field in schema.fields {
                #expect(filled[field.key] == field.defaultValue, "\(schema.type).\(field.key)")
                #expect(!field.required || field.defaultValue == nil, "\(schema.type).\(field.key) is required and has a default")
            }
            let written = AdapterOptions(Dictionary(uniqueKeysWithValues: schema.fields.map { ($0.key, AdapterOptions.Value.string("written")) }))
            #expect(schema.filling(written) == written, "\(schema.type): a written value was replaced by a default")
        }
    }

    private func load(_ tables: String) throws -> Configuration {
        let fixture = try ConfigFixture([
            "pricewatch.toml": """
                provider = "demo"

                [providers.demo]
                type = "replay"
                file = "quotes.csv"

                \(tables)
                """,
            "quotes.csv": GoldenCase.csv,
            "rules.d/a.toml": GoldenCase.rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200"),
        ])
        defer { fixture.remove() }
        let (configuration, diagnostics) = fixture.load()
        #expect(!diagnostics.containsErrors, "\(fixture.render(diagnostics))")
        return try #require(configuration)
    }

    private static func declared(_ type: String, _ key: String) throws -> AdapterOptions.Value {
        let schema = try #require((AdapterCatalog.schemas.providers + AdapterCatalog.schemas.sinks).first { $0.type == type })
        return try #require(schema.field(key)?.defaultValue, "\(type).\(key) declares no default")
    }

    @Test func theWebhookSinkUsesTheDeclaredTimeout() throws {
        let configuration = try load("""
            [sinks.hook]
            type = "webhook"
            url = "http://127.0.0.1:9/hook"
            """)
        let settings = try #require(configuration.sink(named: "hook"))
        let declared = try Self.declared("webhook", "timeout")
        let format = try Self.declared("webhook", "format")
        #expect(settings.options["timeout"] == declared)
        #expect(settings.options["format"] == format)
        let sink = try WebhookSink.make(settings, transport: RefusingTransport(), wallClock: { Timestamp(milliseconds: 0) })
        let request = sink.builder.request(for: SendTestNotification.testAlert(through: sink.identity, now: Timestamp(milliseconds: 0)),
                                           at: Timestamp(milliseconds: 0))
        #expect(request.timeout == declared.durationValue)
        #expect(WebhookSink.Settings.defaultTimeout == declared.durationValue)
    }

    @Test func theEmailSinkUsesTheDeclaredTimeoutAndTLS() throws {
        let configuration = try load("""
            [sinks.mail]
            type = "email"
            url = "smtp://mail.example.com:587"
            from = "alerts@example.com"
            to = ["ops@example.com"]
            """)
        let settings = try #require(configuration.sink(named: "mail"))
        let email = try #require(EmailSettings.parse(settings.options).settings)
        let timeout = try Self.declared("email", "timeout"), tls = try Self.declared("email", "tls")
        #expect(email.timeout == timeout.durationValue)
        #expect(settings.options["tls"] == tls)
        #expect(email.security == .startTLS)
        // Without the loader (no default filled in), the settings do not invent one.
        var unfilled = settings.options
        unfilled["timeout"] = nil
        #expect(EmailSettings.parse(unfilled).problems.map(\.key) == ["timeout"])
    }

    @Test func theYahooProviderSendsTheDeclaredUserAgent() async throws {
        let configuration = try load("""
            [providers.y]
            type = "yahoo"
            base_url = "http://127.0.0.1:9"

            [sinks.console]
            type = "stdout"
            """)
        let settings = try #require(configuration.providers.first { $0.name == "y" })
        let declared = try Self.declared("yahoo", "user_agent")
        #expect(settings.options["user_agent"] == declared)
        let transport = RefusingTransport()
        let context = AdapterContext(http: transport, wallClock: { Timestamp(milliseconds: 0) }, mainFile: configuration.mainFile)
        let provider = try #require(YahooProvider.kind.make(settings, context).adapter)
        _ = try? await provider.fetch(["AAPL"])
        let agents = transport.requests.map { $0.headers.first { $0.name == "User-Agent" }?.value }
        #expect(!agents.isEmpty)
        #expect(agents.allSatisfy { $0 == declared.stringValue })
        #expect(YahooProvider.defaultUserAgent == declared.stringValue)
    }

    /// The adapters keep no literal of their own for a declared default: the value's source
    /// text appears in exactly one file under `Sources/`, its type's schema.
    @Test func eachDefaultIsWrittenOnceInTheSources() throws {
        let sources = try Self.swiftSources()
        for schema in AdapterCatalog.schemas.providers + AdapterCatalog.schemas.sinks {
            for field in schema.fields {
                let spellings: [String]
                switch field.defaultValue {
                case .string(let text)? where text.count > 8: spellings = ["\"\(text)\""]
                case .duration(let duration)?: spellings = [".seconds(\(duration.seconds))", "\"\(duration)\""]
                default: continue
                }
                let files = sources.filter { _, text in
                    spellings.contains { text.contains($0) } && text.contains("\"\(field.key)\"")
                }.map(\.path)
                // Types that declare the same key with the same default write it once each (webhook
                // and mqtt: timeout 10s, each in its schema) or once for all of them (the service
                // sinks' shared timeout 15s): never more files than declaring types.
                let declaring = (AdapterCatalog.schemas.providers + AdapterCatalog.schemas.sinks).filter {
                    $0.field(field.key)?.defaultValue == field.defaultValue
                }
                #expect((1...max(1, declaring.count)).contains(files.count), "\(schema.type).\(field.key): its default is written in \(files)")
            }
        }
    }

    /// `docs/configuration.md` shows the table made from the schemas, verbatim.
    @Test func theReferencePageShowsTheDeclaredDefaults() throws {
        let page = try String(contentsOfFile: ExampleConfigurationTests.packageRoot + "/docs/configuration.md", encoding: .utf8)
        let begin = "<!-- adapter defaults: begin -->\n", end = "<!-- adapter defaults: end -->"
        let start = try #require(page.range(of: begin), "docs/configuration.md has no '\(begin)' marker")
        let stop = try #require(page.range(of: end, range: start.upperBound..<page.endIndex))
        let shown = String(page[start.upperBound..<stop.lowerBound])
        let expected = AdapterDefaultsTable.markdown()
        #expect(shown == expected, "docs/configuration.md's defaults table differs from the schemas; it should read:\n\(expected)")
    }

    static func swiftSources() throws -> [(path: String, text: String)] {
        let root = ExampleConfigurationTests.packageRoot + "/Sources"
        let paths = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        return try paths.map { ($0, try String(contentsOfFile: root + "/" + $0, encoding: .utf8)) }
    }
}

/// An HTTP transport that records each request and answers none (a connection refused).
private final class RefusingTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [HTTPRequest] = []

    var requests: [HTTPRequest] { lock.withLock { recorded } }

    func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        lock.withLock { recorded.append(request) }
        throw HTTPTransportError(.connectionFailed, "refused by the test")
    }
}
