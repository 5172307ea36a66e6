import Foundation
import PriceWatchConfig
import PriceWatchCore
import Testing

/// The `[sinks.NAME]` table of type `webhook`: what a valid one decodes to, and the exact
/// diagnostics of its mistakes (never showing the secret).
@Suite struct WebhookSinkConfigTests {
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

    private func load(sink: String, environment: [String: String] = [:]) throws -> (Configuration?, [String]) {
        let fixture = try ConfigFixture([
            "pricewatch.toml": """
                [providers.demo]
                type = "replay"
                file = "quotes.csv"

                [sinks.hook]
                type = "webhook"
                \(sink)
                """,
            "quotes.csv": GoldenCase.csv,
            "rules.d/a.toml": GoldenCase.rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200"),
        ])
        defer { fixture.remove() }
        let (configuration, diagnostics) = fixture.load(environment)
        return (configuration, fixture.render(diagnostics))
    }

    @Test func validTableDecodesEveryKey() throws {
        let (configuration, diagnostics) = try load(sink: """
            url = "https://hooks.slack.com/services/T0/B0/XYZ"
            format = "slack"
            headers = { X-Team = "ops", Authorization = "Bearer abc" }
            timeout = "5s"
            secret = { env = "HOOK_SECRET" }
            """, environment: ["HOOK_SECRET": Self.secret])
        #expect(diagnostics == [])
        let sink = try #require(configuration?.sink(named: "hook"))
        #expect(sink.type == "webhook")
        #expect(sink.identity == "webhook/hook")
        #expect(sink.options.string("url") == "https://hooks.slack.com/services/T0/B0/XYZ")
        #expect(sink.options.string("format") == "slack")
        #expect(sink.options.stringTable("headers")?.map(\.key) == ["X-Team", "Authorization"])
        #expect(sink.options.stringTable("headers")?.map(\.value) == ["ops", "Bearer abc"])
        #expect(sink.options.duration("timeout") == RuleDuration(seconds: 5))
        #expect(sink.options.secret("secret") == Secret(value: Self.secret, origin: "env HOOK_SECRET"))
    }

    @Test func onlyTheURLIsRequired() throws {
        let (configuration, diagnostics) = try load(sink: "url = \"http://127.0.0.1:9000/hook\"")
        #expect(diagnostics == [])
        let sink = try #require(configuration?.sink(named: "hook"))
        #expect(sink.options.string("format") == "json")
        #expect(sink.options.stringTable("headers") == nil)
        // The loader fills in the schema's default (docs/configuration.md, "Defaults").
        #expect(sink.options.duration("timeout") == RuleDuration(seconds: 10))
        #expect(sink.options.secret("secret") == nil)
    }

    @Test func missingURL() throws {
        let (configuration, diagnostics) = try load(sink: "format = \"json\"")
        #expect(configuration == nil)
        #expect(diagnostics == [
            "$DIR/pricewatch.toml:5:1: error: sinks.hook: missing required key 'url' for type 'webhook' "
                + "(the http:// or https:// URL each alert is POSTed to)",
        ])
    }

    @Test func aURLWithoutSchemeSaysToAddHTTPS() throws {
        let (configuration, diagnostics) = try load(sink: "url = \"ntfy.sh/topic\"\nformat = \"ntfy\"")
        #expect(configuration == nil)
        #expect(diagnostics == [
            "$DIR/pricewatch.toml:7:1: error: sinks.hook.url: expected an http:// or https:// URL, found \"ntfy.sh\" "
                + "(the rest of the URL is not shown); add \"https://\" in front",
        ])
    }

    @Test func badURLAndFormat() throws {
        let (configuration, diagnostics) = try load(sink: "url = \"ftp://example.com/x\"\nformat = \"teams\"")
        #expect(configuration == nil)
        #expect(diagnostics == [
            "$DIR/pricewatch.toml:7:1: error: sinks.hook.url: expected an http:// or https:// URL, found \"ftp://example.com\" (the rest of the URL is not shown)",
            "$DIR/pricewatch.toml:8:1: error: sinks.hook.format: expected \"json\", \"slack\", \"discord\" or \"ntfy\", found \"teams\"",
        ])
    }

    @Test(arguments: [
        ("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
         "does not start with 'whsec_'"),
        ("whsec_%%%not-base64%%%",
         "the part after 'whsec_' is not valid base64"),
        ("whsec_",
         "has no key after 'whsec_'"),
    ])
    func badSecretIsReportedWithoutItsValue(value: String, problem: String) throws {
        let (configuration, diagnostics) = try load(sink: "url = \"https://example.com/hook\"\nsecret = { env = \"HOOK_SECRET\" }",
                                                    environment: ["HOOK_SECRET": value])
        #expect(configuration == nil)
        let expected = "$DIR/pricewatch.toml:8:1: error: sinks.hook.secret: expected a Standard Webhooks secret "
            + "('whsec_' followed by the key in base64), but "
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.hasPrefix(expected) == true)
        #expect(diagnostics.first?.contains(problem) == true)
        #expect(diagnostics.first?.contains("env HOOK_SECRET") == true)
        let key = value.hasPrefix("whsec_") ? String(value.dropFirst(6)) : value
        if !key.isEmpty { #expect(diagnostics.first?.contains(key) == false) }
    }

    @Test func badSecretMessagesExactly() throws {
        let (_, diagnostics) = try load(sink: "url = \"https://example.com/hook\"\nsecret = { env = \"HOOK_SECRET\" }",
                                        environment: ["HOOK_SECRET": "not-a-whsec-secret"])
        #expect(diagnostics == [
            "$DIR/pricewatch.toml:8:1: error: sinks.hook.secret: expected a Standard Webhooks secret ('whsec_' followed "
                + "by the key in base64), but the secret from env HOOK_SECRET does not start with 'whsec_'",
        ])
    }

    @Test func unknownKeyIsSuggested() throws {
        let (_, diagnostics) = try load(sink: "url = \"https://example.com/hook\"\ntimout = \"5s\"")
        #expect(diagnostics == ["$DIR/pricewatch.toml:8:1: error: unknown key 'timout' in sinks.hook; did you mean 'timeout'?"])
    }
}
