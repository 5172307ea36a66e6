import Foundation
import PriceWatchCore
import PriceWatchTestKit
import Testing

/// What a hostile or broken provider answer may not do to the commands and the daemon: leak a
/// configured secret it echoes back (issue 10.2), or forge lines with control characters in
/// its text fields (issue 10.7). The built binary against a loopback server.
@Suite struct ProviderTextAndSecretTests {
    /// A key with characters that a query string percent-encodes.
    static let key = "sk_live/Zq9+TOKEN42"
    static let encodedKey = "sk_live%2FZq9%2BTOKEN42"

    let server: LoopbackHTTPServer
    let directory: TemporaryDirectory

    init() throws {
        server = try LoopbackHTTPServer()
        directory = try TemporaryDirectory()
        try directory.write("provider.key", Self.key + "\n")
        try FileManager.default.createDirectory(atPath: directory.file("rules.d"), withIntermediateDirectories: true)
        // Both services answer with an error that quotes the request back, key included.
        let echo = "invalid API key \(Self.key) for /quote?symbol=AAPL&token=\(Self.encodedKey)"
        server.route("GET", "/quote") { request in
            if request.header("X-Finnhub-Token") != nil {
                return LoopbackResponse(status: 401, headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("X-Echo", Self.key)],
                                        body: Array(#"{"error":"\#(echo)"}"#.utf8))
            }
            return LoopbackResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")],
                                    body: Array(#"{"code":401,"message":"\#(echo)","status":"error"}"#.utf8))
        }
    }

    func run(_ arguments: [String]) async throws -> CommandRunner.Result {
        try await CommandRunner.run(arguments, in: directory.path)
    }

    func configure(_ body: String) throws -> String {
        try directory.write("pricewatch.toml", body)
        return directory.file("pricewatch.toml")
    }

    func provider(_ type: String) -> String {
        "[providers.p]\ntype = \"\(type)\"\napi_key = { file = \"provider.key\" }\nbase_url = \"\(server.baseURL)\"\n"
    }

    // MARK: 10.2 secrets

    @Test(arguments: ["finnhub", "twelvedata"])
    func quoteNeverPrintsAKeyTheProviderEchoes(type: String) async throws {
        let config = try configure(provider(type))
        for format in ["text", "json"] {
            let result = try await run(["quote", "--config", config, "--format", format, "AAPL"])
            #expect(result.status == 1)
            let all = result.standardOutput + result.standardError
            #expect(!all.contains(Self.key) && !all.contains(Self.encodedKey) && !all.contains("TOKEN42"), "\(all)")
            #expect(result.standardError.contains("<redacted>"), "\(result.standardError)")
            #expect(result.standardError.hasPrefix("AAPL: error: "))
        }
        #expect(!server.requests.isEmpty)
    }

    @Test func theDaemonNeverLogsAKeyTheProviderEchoes() async throws {
        let config = try configure("state = \"state/pricewatch.db\"\ninterval = \"1s\"\nfailure_warning_after = 1\n" + provider("finnhub")
                                   + "[sinks.out]\ntype = \"stdout\"\n")
        try directory.write("rules.d/a.toml", "[[rule]]\nid = \"aapl\"\nsymbol = \"AAPL\"\nabove = 1\n")
        let daemon = try RunningDaemon(arguments: ["run", "--config", config, "--log-target", "stderr", "--log-level", "debug"],
                                       directory: directory.path)
        // A failed poll gives the data-health warning, which quotes the error again.
        try await waitUntil("the data-health warning 'provider has failed' on standard error") {
            daemon.errorLines.contains { $0.contains("provider has failed") } || !daemon.isRunning
        }
        #expect(try await daemon.stop() == 0)
        let log = daemon.errorLines.joined(separator: "\n")
        #expect(log.contains("provider has failed"), "no data-health warning within 60 s: \(log)")
        #expect(log.contains("<redacted>"), "\(log)")
        #expect(!log.contains("TOKEN42"), "\(log)")
    }

    @Test func aMistypedWebhookURLIsShownAsSchemeAndHostOnly() async throws {
        let config = try configure("""
            [sinks.hook]
            type = "webhook"
            url = "htps://hooks.slack.com/services/T000/B000/XXXXSECRETPATH?token=QUERYSECRET"
            [sinks.mail]
            type = "email"
            url = "stmp://alice:MAILPASSWORD@mail.example.com:587/x"
            from = "a@example.com"
            to = ["b@example.com"]
            """)
        let check = try await run(["check", "--config", config])
        #expect(check.status != 0)
        let all = check.standardOutput + check.standardError
        #expect(all.contains(#"found "htps://hooks.slack.com" (the rest of the URL is not shown)"#), "\(all)")
        #expect(all.contains(#"found "stmp://mail.example.com:587" (the rest of the URL is not shown)"#), "\(all)")
        for secret in ["XXXXSECRETPATH", "QUERYSECRET", "services/T000", "MAILPASSWORD", "alice"] {
            #expect(!all.contains(secret), "\(secret) in \(all)")
        }
        // At start, the daemon prints the same diagnostics.
        let start = try await run(["run", "--config", config, "--log-target", "stderr"])
        #expect(start.status == 78)
        #expect(start.standardError.contains(#""htps://hooks.slack.com""#), "\(start.standardError)")
        #expect(!start.standardError.contains("XXXXSECRETPATH") && !start.standardError.contains("MAILPASSWORD"))
    }

    // MARK: 10.7 provider text

    /// A Yahoo answer whose currency and exchange carry CR LF and an escape sequence.
    func serveHostileYahoo() {
        server.route("GET", "/") { _ in LoopbackResponse(status: 404, headers: [HTTPHeader("Set-Cookie", "A3=cookie; Path=/")]) }
        server.route("GET", "/v1/test/getcrumb") { _ in .text("crumb") }
        server.route("GET", "/v7/finance/quote") { _ in
            LoopbackResponse(headers: [HTTPHeader("Content-Type", "application/json")], body: Array(#"""
                {"quoteResponse":{"result":[{"symbol":"AAPL","currency":"USD\r\nBcc: victim@example.com","exchange":"NMS\u001b[2J\nFAKE 1.00",
                "marketState":"CLOSED","regularMarketPrice":244.6,"priceHint":2,"regularMarketTime":1739566800,"regularMarketPreviousClose":241.53}],"error":null}}
                """#.utf8))
        }
    }

    @Test func quoteDropsControlCharacterFieldsWithAWarningNamingSymbolAndField() async throws {
        serveHostileYahoo()
        let config = try configure("[providers.yahoo]\ntype = \"yahoo\"\nbase_url = \"\(server.baseURL)\"\n")
        let text = try await run(["quote", "--config", config, "AAPL"])
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.outputLines == [
            "SYMBOL   PRICE  PREV_CLOSE  CHANGE  CURRENCY  TIME                  EXCHANGE  STATE",
            "AAPL    244.60      241.53  +1.27%  -         2025-02-14T21:00:00Z  -         CLOSED",
        ])
        #expect(text.errorLines.count == 2, "\(text.errorLines)")
        #expect(text.errorLines.contains { $0.hasPrefix("AAPL: ignoring the provider's currency: expected a three-letter currency code, found \"USD\\r\\nBcc:") })
        #expect(text.errorLines.contains { $0.hasPrefix("AAPL: ignoring the provider's exchange: expected text without control characters") })
        #expect(!(text.standardOutput + text.standardError).contains("\u{1b}"))
        let json = try await run(["quote", "--config", config, "--format", "json", "AAPL"])
        #expect(json.outputLines == [
            #"{"symbol":"AAPL","provider":"yahoo","price":244.6,"currency":null,"time":"2025-02-14T21:00:00Z","previous_close":241.53,"exchange":null,"market_state":"CLOSED"}"#,
        ])
    }

    @Test func theDaemonAlertsWithoutTheForgedFieldsAndWarnsInOneLine() async throws {
        serveHostileYahoo()
        let config = try configure("""
            state = "state/pricewatch.db"
            interval = "1s"
            [providers.yahoo]
            type = "yahoo"
            base_url = "\(server.baseURL)"
            [sinks.out]
            type = "stdout"
            """)
        try directory.write("rules.d/a.toml", "[[rule]]\nid = \"aapl\"\nsymbol = \"AAPL\"\nabove = 200\n")
        let daemon = try RunningDaemon(arguments: ["run", "--config", config, "--log-target", "stderr"], directory: directory.path)
        try await daemon.waitForOutput("the alert of rule aapl") { $0.contains { $0.contains("aapl") } }
        #expect(try await daemon.stop() == 0)
        #expect(daemon.outputLines.count == 1, "\(daemon.outputLines)")
        #expect(daemon.outputLines.first?.contains("244.60 above 200") == true, "\(daemon.outputLines)")
        #expect(!daemon.outputLines.joined().contains("Bcc"))
        #expect(!daemon.errorLines.contains { $0.hasPrefix("Bcc") || $0.hasPrefix("FAKE") }, "\(daemon.errorLines)")
        #expect(daemon.errorLines.contains { $0.contains("AAPL: ignoring the provider's currency") && $0.contains(#"\r\nBcc"#) },
                "\(daemon.errorLines)")
    }
}
