import Foundation
import PriceWatchCore
import PriceWatchCurl
import PriceWatchSinks
import PriceWatchTestKit
import Testing

/// The email sink through the real libcurl SMTP transport to a real SMTP server on loopback
/// (aiosmtpd), which parses every message it receives with Python's `email` package
/// (policy=strict): STARTTLS and AUTH, implicit TLS, plain, and every way it can fail.
@Suite(.serialized) struct EmailServerTests {
    let clock = ManualWallClock(EmailFixtures.date)

    func sink(_ server: EmailTestServer, tls: String? = nil, authenticated: Bool = true, password: String = EmailTestServer.password,
              caFile: String?? = .none, to: [String] = ["ops@example.com", "Zoë Ops <zoe@example.org>"],
              timeout: Duration = .seconds(30)) throws -> EmailSink {
        var options = AdapterOptions([
            "url": .string(server.url),
            "from": .string("Price Watch <alerts@example.com>"),
            "to": .strings(to),
        ])
        options["timeout"] = .duration(try #require(RuleDuration(seconds: timeout.components.seconds)))
        if let tls { options["tls"] = .string(tls) }
        if authenticated {
            options["username"] = .string(EmailTestServer.username)
            options["password"] = .secret(Secret(value: password, origin: "credential smtp-password"))
        }
        switch caFile {
        case .none: options["ca_file"] = .path(server.caFile)
        case .some(let path?): options["ca_file"] = .path(path)
        case .some(nil): break
        }
        let (settings, problems) = EmailSettings.parse(options)
        let parsed = try #require(settings, "\(problems)")
        return EmailSink(name: "ops", settings: parsed, transport: CurlMailTransport(), now: clock.function)
    }

    func deliveryError(_ sink: EmailSink, _ alerts: [Alert] = [EmailFixtures.priceAlert]) async -> SinkError? {
        do {
            try await sink.deliver(alerts)
            return nil
        } catch {
            return error
        }
    }

    /// The strict checks every received message must pass.
    func checkReceived(_ mail: ReceivedMail, sent: [UInt8], alerts: [Alert]) throws {
        #expect(mail.parseError == nil, "the strict parser refused the message: \(mail.parseError ?? "")")
        let parsed = try #require(mail.message)
        #expect(parsed.defects.isEmpty, "defects: \(parsed.defects)")
        #expect(mail.raw == sent, "the server received other bytes than the sink built")
        #expect(mail.mailFrom == "alerts@example.com")
        #expect(mail.rcptTos == ["ops@example.com", "zoe@example.org"])
        #expect(parsed.from == ["alerts@example.com"])
        #expect(parsed.fromDisplay == ["Price Watch"])
        #expect(parsed.to == ["ops@example.com", "zoe@example.org"])
        #expect(parsed.date == "2024-10-02T14:31:00+00:00")
        #expect(parsed.headers(named: "Auto-Submitted") == ["auto-generated"])
        #expect(parsed.headers(named: "MIME-Version") == ["1.0"])
        #expect(parsed.headers(named: "X-PriceWatch-Alert-ID") == alerts.map(\.id))
        #expect(parsed.contentType == "multipart/alternative")
        #expect(parsed.parts.map(\.contentType) == ["text/plain", "text/html"])
        #expect(parsed.parts.allSatisfy { $0.charset == "utf-8" && $0.transferEncoding == "quoted-printable" })
        for alert in alerts {
            #expect(parsed.parts.first?.content.contains(alert.message) == true)
        }
    }

    @Test func startTLSWithAuthDeliversAWellFormedMessage() async throws {
        let server = try await EmailTestServer(.startTLS, authenticated: true)
        var alert = EmailFixtures.priceAlert
        alert.message = "AAPL über 225,70 € — <now> & \"then\""
        let sink = try sink(server)
        try await sink.deliver(alert)

        let received = try server.received()
        try #require(received.count == 1)
        let mail = received[0]
        #expect(mail.tls)
        #expect(mail.authenticated && mail.login == EmailTestServer.username)
        try checkReceived(mail, sent: sink.message(for: [alert], date: clock.now).bytes, alerts: [alert])
        let parsed = try #require(mail.message)
        #expect(parsed.subject == alert.message)
        #expect(parsed.messageId == "<\(alert.id)@pricewatch>")
        #expect(parsed.parts.last?.content.contains("AAPL über 225,70 € — &lt;now&gt; &amp; &quot;then&quot;") == true)
    }

    @Test func twentyAlertsArriveAsOneEmail() async throws {
        let server = try await EmailTestServer(.startTLS, authenticated: true)
        let sink = try sink(server)
        try await sink.deliver(EmailFixtures.twentyAlerts)
        let received = try server.received()
        try #require(received.count == 1)
        try checkReceived(received[0], sent: sink.message(for: EmailFixtures.twentyAlerts, date: clock.now).bytes,
                          alerts: EmailFixtures.twentyAlerts)
        #expect(received[0].message?.subject == "20 price alerts: AAPL, MSFT, BTC-USD, ETH-USD, NVDA and 2 more")
    }

    @Test func wrongPasswordIsPermanentAndNeverShowsThePassword() async throws {
        let server = try await EmailTestServer(.startTLS, authenticated: true)
        let wrong = "wr0ng-pa55w0rd-\(UUID().uuidString)"
        let error = try #require(await deliveryError(try sink(server, password: wrong)))
        #expect(!error.isRetryable)
        #expect(error.message.hasPrefix("email/ops: smtp://127.0.0.1:\(server.port): authentication failed"), "\(error.message)")
        #expect(!error.message.contains(wrong) && !error.message.contains(EmailTestServer.password))
        #expect(try server.received().isEmpty)
    }

    @Test func aServerWithoutSTARTTLSGetsNothingInPlainText() async throws {
        let server = try await EmailTestServer(.plain)
        // With credentials configured, as a real setup has them: the password never goes out.
        let error = try #require(await deliveryError(try sink(server, caFile: .some(nil))))
        #expect(error.isRetryable, "nothing was sent; the server may be mended (or the attacker gone) before the alert gets too old")
        #expect(error.message.contains("does not offer STARTTLS"), "\(error.message)")
        #expect(!error.message.contains(EmailTestServer.password))
        #expect(try server.received().isEmpty)
    }

    @Test func anUntrustedCertificateIsRefused() async throws {
        let server = try await EmailTestServer(.startTLS, authenticated: true)
        // The system store does not know the test server's self-signed certificate.
        let error = try #require(await deliveryError(try sink(server, caFile: .some(nil))))
        #expect(error.isRetryable)
        #expect(error.message.contains("TLS failed"), "\(error.message)")
        #expect(!error.message.contains(EmailTestServer.password))
        #expect(try server.received().isEmpty)
    }

    @Test func implicitTLSWithAuthDelivers() async throws {
        let server = try await EmailTestServer(.implicitTLS, authenticated: true)
        let sink = try sink(server)
        try await sink.deliver(EmailFixtures.priceAlert)
        let received = try server.received()
        try #require(received.count == 1)
        #expect(received[0].tls && received[0].authenticated)
        try checkReceived(received[0], sent: sink.message(for: [EmailFixtures.priceAlert], date: clock.now).bytes,
                          alerts: [EmailFixtures.priceAlert])
    }

    @Test func plainWithoutAuthDeliversWhenConfigured() async throws {
        let server = try await EmailTestServer(.plain)
        let sink = try sink(server, tls: "none", authenticated: false, caFile: .some(nil))
        try await sink.deliver(EmailFixtures.priceAlert)
        let received = try server.received()
        try #require(received.count == 1)
        #expect(!received[0].tls && !received[0].authenticated)
        try checkReceived(received[0], sent: sink.message(for: [EmailFixtures.priceAlert], date: clock.now).bytes,
                          alerts: [EmailFixtures.priceAlert])
    }

    @Test func aRejectedRecipientIsPermanent() async throws {
        let server = try await EmailTestServer(.startTLS, authenticated: true, reject: ["zoe@example.org"])
        let error = try #require(await deliveryError(try sink(server)))
        #expect(!error.isRetryable)
        #expect(error.message.contains("550"), "\(error.message)")
        #expect(try server.received().isEmpty)
    }

    @Test func aTemporaryRefusalIsRetryable() async throws {
        let server = try await EmailTestServer(.startTLS, authenticated: true, tempfail: ["ops@example.com"])
        let error = try #require(await deliveryError(try sink(server)))
        #expect(error.isRetryable)
        #expect(error.message.contains("451"), "\(error.message)")
    }

    @Test func aServerThatIsDownIsRetryable() async throws {
        let server = try await EmailTestServer(.closed)
        let error = try #require(await deliveryError(try sink(server, caFile: .some(nil))))
        #expect(error.isRetryable)
        #expect(error.message.hasPrefix("email/ops: smtp://127.0.0.1:\(server.port): "), "\(error.message)")
    }

    @Test func aSubmissionWithALineBreakNeverReachesTheServer() async throws {
        let server = try await EmailTestServer(.plain)
        let submission = MailSubmission(url: server.url, security: .none, envelopeFrom: "alerts@example.com",
                                        recipients: ["ops@example.com\r\nRCPT TO:<victim@example.net>"], message: Array("x\r\n".utf8))
        await #expect(throws: MailTransportError.self) { try await CurlMailTransport().send(submission) }
        let plaintextWithPassword = MailSubmission(url: server.url, security: .none, envelopeFrom: "alerts@example.com",
                                                   recipients: ["ops@example.com"], message: Array("x\r\n".utf8),
                                                   username: "alice", password: Secret(value: "pw", origin: "test"))
        do {
            try await CurlMailTransport().send(plaintextWithPassword)
            Issue.record("expected a refusal")
        } catch {
            #expect(error.kind == .invalidRequest && !error.isRetryable)
        }
        #expect(try server.received().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: server.directory.file("messages/1.json")))
    }
}
