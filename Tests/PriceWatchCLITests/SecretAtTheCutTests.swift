import Foundation
import PriceWatchCore
import PriceWatchTestKit
import Testing

/// Issue 29, item 1: an error line was cut to 200 characters and then redacted, so a secret
/// echoed near the cut survived in part (17 of a Finnhub token's 18 characters; most of a
/// webhook signing secret in `notify-test`). Each test sweeps the secret's position across the
/// cut and requires that no run of 6 of its characters reaches the output.
@Suite struct SecretAtTheCutTests {
    let server: LoopbackHTTPServer
    let directory: TemporaryDirectory

    init() throws {
        server = try LoopbackHTTPServer()
        directory = try TemporaryDirectory()
    }

    /// Every run of six characters of `secret`.
    static func runs(of secret: String) -> [String] {
        let characters = Array(secret)
        return (0...(characters.count - 6)).map { String(characters[$0..<($0 + 6)]) }
    }

    static func leaked(_ secret: String, in text: String) -> [String] {
        runs(of: secret).filter { text.contains($0) }
    }

    @Test func quoteShowsNoPartOfAKeyEchoedAtTheCut() async throws {
        let key = "fh-Zq9TOKEN42abcdef"
        try directory.write("provider.key", key + "\n")
        server.route("GET", "/quote") { request in
            let padding = Int(request.queryValue("symbol")?.dropFirst() ?? "") ?? 0
            return LoopbackResponse(status: 401, body: Array((String(repeating: "a", count: padding) + key + " is not a valid token").utf8))
        }
        try directory.write("pricewatch.toml", """
            [providers.p]
            type = "finnhub"
            api_key = { file = "provider.key" }
            base_url = "\(server.baseURL)"
            """)
        let symbols = (170...201).map { "P\($0)" }
        let result = try await CommandRunner.run(["quote", "--config", "pricewatch.toml"] + symbols, in: directory.path)
        #expect(result.status == 1)
        #expect(result.errorLines.count == symbols.count, "\(result.errorLines)")
        let all = result.standardOutput + result.standardError
        #expect(Self.leaked(key, in: all).isEmpty, "\(Self.leaked(key, in: all)) in \(all)")
    }

    @Test func notifyTestShowsNoPartOfASigningSecretEchoedAtTheCut() async throws {
        let secret = "whsec_" + "c2lnbmluZy1zZWNyZXQtYXQtdGhlLWN1dA=="
        try directory.write("webhook.secret", secret + "\n")
        server.route("POST", "/hook") { request in
            let padding = Int(request.queryValue("pad") ?? "") ?? 0
            return LoopbackResponse(status: 401, body: Array((String(repeating: "a", count: padding) + "bad signature secret " + secret).utf8))
        }
        // The answer's first 200 characters end inside the secret from padding 138 to 178.
        let paddings = Array(stride(from: 136, through: 182, by: 3))
        var main = ""
        for padding in paddings {
            main += """
                [sinks.p\(padding)]
                type = "webhook"
                url = "\(server.baseURL)/hook?pad=\(padding)"
                secret = { file = "webhook.secret" }

                """
        }
        try directory.write("pricewatch.toml", main)
        for padding in paddings {
            let result = try await CommandRunner.run(["notify-test", "--config", "pricewatch.toml", "p\(padding)"], in: directory.path)
            #expect(result.status == 1, "\(result.standardError)")
            let all = result.standardOutput + result.standardError
            #expect(all.contains("answered HTTP 401"), "\(all)")
            #expect(Self.leaked(secret, in: all).isEmpty, "at \(padding): \(all)")
        }
    }
}
