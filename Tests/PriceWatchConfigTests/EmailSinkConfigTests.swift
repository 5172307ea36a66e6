import Foundation
import PriceWatchConfig
import PriceWatchCore
import Testing

/// The `[sinks.NAME]` table of type `email`: what a valid one decodes to, and the exact
/// diagnostics, at file:line, of every value that could put a CR or LF into a header or the SMTP
/// envelope, of a password without TLS, and of other mistakes (never showing the password).
@Suite struct EmailSinkConfigTests {
    static let password = "sm7p-pa55w0rd"

    private func load(sink: String, environment: [String: String] = [:]) throws -> (Configuration?, [String]) {
        let fixture = try ConfigFixture([
            "pricewatch.toml": """
                [providers.demo]
                type = "replay"
                file = "quotes.csv"

                [sinks.mail]
                type = "email"
                \(sink)
                """,
            "quotes.csv": GoldenCase.csv,
            "ca.pem": "-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n",
            "rules.d/a.toml": GoldenCase.rule("id = \"x\"\nsymbol = \"AAPL\"\nabove = 200"),
        ])
        defer { fixture.remove() }
        let (configuration, diagnostics) = fixture.load(environment)
        return (configuration, fixture.render(diagnostics))
    }

    @Test func validTableDecodesEveryKey() throws {
        let (configuration, diagnostics) = try load(sink: """
            url = "smtp://mail.example.com:587"
            from = "Price Watch <alerts@example.com>"
            to = ["ops@example.com", "Zoë <zoe@example.org>"]
            username = "alerts"
            password = { env = "SMTP_PASSWORD" }
            timeout = "20s"
            ca_file = "ca.pem"
            subject = "[pricewatch] {{symbol}} {{condition}}"
            """, environment: ["SMTP_PASSWORD": Self.password])
        #expect(diagnostics == [])
        let sink = try #require(configuration?.sink(named: "mail"))
        #expect(sink.identity == "email/mail")
        let (settings, problems) = EmailSettings.parse(sink.options)
        #expect(problems.isEmpty)
        let email = try #require(settings)
        #expect(email.url == "smtp://mail.example.com:587")
        #expect(email.security == .startTLS)
        #expect(email.from.address == "alerts@example.com" && email.from.displayName == "Price Watch")
        #expect(email.to.map(\.address) == ["ops@example.com", "zoe@example.org"])
        #expect(email.username == "alerts")
        #expect(email.password == Secret(value: Self.password, origin: "env SMTP_PASSWORD"))
        #expect(email.timeout == .seconds(20))
        #expect(email.caFile?.hasSuffix("/ca.pem") == true)
        #expect(email.subject?.source == "[pricewatch] {{symbol}} {{condition}}")
    }

    @Test func defaultsAndImplicitTLS() throws {
        let (configuration, diagnostics) = try load(sink: """
            url = "smtps://mail.example.com"
            from = "alerts@example.com"
            to = ["ops@example.com"]
            """)
        #expect(diagnostics == [])
        let sink = try #require(configuration?.sink(named: "mail"))
        let email = try #require(EmailSettings.parse(sink.options).settings)
        #expect(email.security == .implicitTLS)
        #expect(email.timeout == .seconds(30))
        #expect(email.username == nil && email.password == nil && email.caFile == nil && email.subject == nil)
    }

    @Test func plainOnlyWhenWrittenAndThenWithoutAuth() throws {
        let (configuration, diagnostics) = try load(sink: """
            url = "smtp://127.0.0.1:25"
            from = "alerts@example.com"
            to = ["ops@example.com"]
            tls = "none"
            """)
        #expect(diagnostics == [])
        let sink = try #require(configuration?.sink(named: "mail"))
        #expect(EmailSettings.parse(sink.options).settings?.security == MailSubmission.Security.none)
    }

    @Test func missingKeys() throws {
        let (configuration, diagnostics) = try load(sink: "url = \"smtp://mail.example.com\"")
        #expect(configuration == nil)
        #expect(diagnostics == [
            "$DIR/pricewatch.toml:5:1: error: sinks.mail: missing required key 'from' for type 'email' "
                + "(the sender address, `alerts@example.com` or `Price Watch <alerts@example.com>`)",
            "$DIR/pricewatch.toml:5:1: error: sinks.mail: missing required key 'to' for type 'email' (the recipient addresses)",
        ])
    }

    @Test func headerAndEnvelopeInjectionIsRefusedAtItsLine() throws {
        let (configuration, diagnostics) = try load(sink: """
            url = "smtp://mail.example.com:587"
            from = "alerts@example.com\\r\\nBcc: victim@example.net"
            to = ["ops@example.com", "ops2@example.com\\nRCPT TO:<victim@example.net>"]
            subject = "alert\\r\\nBcc: victim@example.net"
            """)
        #expect(configuration == nil)
        #expect(diagnostics == [
            "$DIR/pricewatch.toml:8:1: error: sinks.mail.from: expected a mail address without control characters (CR, LF, NUL, ...), "
                + "found \"alerts@example.com\\r\\nBcc: victim@example.net\"",
            "$DIR/pricewatch.toml:9:26: error: sinks.mail.to: expected a mail address without control characters (CR, LF, NUL, ...), "
                + "found \"ops2@example.com\\nRCPT TO:<victim@example.net>\"",
            "$DIR/pricewatch.toml:10:1: error: sinks.mail.subject: expected one line without control characters, "
                + "found \"alert\\r\\nBcc: victim@example.net\"",
        ])
    }

    @Test func malformedAddresses() throws {
        let (_, diagnostics) = try load(sink: """
            url = "smtp://mail.example.com"
            from = "alerts"
            to = ["ops@example.com", "ops@example.com"]
            """)
        #expect(diagnostics == [
            "$DIR/pricewatch.toml:8:1: error: sinks.mail.from: expected a mail address such as alerts@example.com, found \"alerts\" (no '@')",
            "$DIR/pricewatch.toml:9:26: error: sinks.mail.to: recipient 'ops@example.com' is listed twice",
        ])
    }

    @Test func aPasswordNeverTravelsWithoutTLS() throws {
        let (configuration, diagnostics) = try load(sink: """
            url = "smtp://mail.example.com"
            from = "alerts@example.com"
            to = ["ops@example.com"]
            tls = "none"
            username = "alerts"
            password = { env = "SMTP_PASSWORD" }
            """, environment: ["SMTP_PASSWORD": Self.password])
        #expect(configuration == nil)
        #expect(diagnostics == [
            "$DIR/pricewatch.toml:10:1: error: sinks.mail.tls: refusing to send a password without TLS: remove 'tls = \"none\"' "
                + "(STARTTLS) or use smtps://, or remove 'username' and 'password'",
        ])
        #expect(!diagnostics.joined().contains(Self.password))
    }

    @Test func credentialsComeInPairsAndNotInTheURL() throws {
        let (_, withoutPassword) = try load(sink: """
            url = "smtp://mail.example.com"
            from = "alerts@example.com"
            to = ["ops@example.com"]
            username = "alerts"
            """)
        #expect(withoutPassword == [
            "$DIR/pricewatch.toml:10:1: error: sinks.mail.username: expected 'password' with 'username' (AUTH needs both), found no password",
        ])
        let (_, inURL) = try load(sink: """
            url = "smtp://alerts:\(Self.password)@mail.example.com"
            from = "alerts@example.com"
            to = ["ops@example.com"]
            """)
        #expect(inURL == [
            "$DIR/pricewatch.toml:7:1: error: sinks.mail.url: expected a URL without credentials (use 'username' and 'password'), found a '@' before the host",
        ])
    }

    @Test func smtpsWithTLSNoneAndBadSchemes() throws {
        let (_, smtps) = try load(sink: """
            url = "smtps://mail.example.com"
            from = "alerts@example.com"
            to = ["ops@example.com"]
            tls = "none"
            """)
        #expect(smtps == [
            "$DIR/pricewatch.toml:10:1: error: sinks.mail.tls: expected no 'tls = \"none\"' with an smtps:// URL (smtps:// always uses TLS), found \"none\"",
        ])
        let (_, http) = try load(sink: """
            url = "http://mail.example.com"
            from = "alerts@example.com"
            to = ["ops@example.com"]
            tls = "implicit"
            """)
        #expect(http == [
            "$DIR/pricewatch.toml:7:1: error: sinks.mail.url: expected a smtp:// or smtps:// URL, found \"http://mail.example.com\"",
            "$DIR/pricewatch.toml:10:1: error: sinks.mail.tls: expected \"starttls\" or \"none\", found \"implicit\"",
        ])
    }

    @Test func subjectTemplateIsCheckedLikeAMessage() throws {
        let (_, diagnostics) = try load(sink: """
            url = "smtp://mail.example.com"
            from = "alerts@example.com"
            to = ["ops@example.com"]
            subject = "{{symbl}} alert"
            """)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.hasPrefix("$DIR/pricewatch.toml:10:1: error: sinks.mail.subject: unknown placeholder '{{symbl}}'; did you mean '{{symbol}}'?") == true)
    }
}
