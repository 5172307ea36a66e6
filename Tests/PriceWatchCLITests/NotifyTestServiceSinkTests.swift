import Foundation
import PriceWatchTestKit
import Testing

/// `pricewatch notify-test` and `check` with the built binary through a Telegram sink on a
/// loopback Bot API server: one written as a `tgram://` URL read from a secret file, one in
/// the long form whose chat the server refuses while echoing the token. No part of the token
/// reaches the output.
@Suite struct NotifyTestServiceSinkTests {
    static let token = "5820417396:AAGx7TqWm2Lr9VbPz_kJc4NdYe-Fh8sUo3Q"

    static func leaked(_ text: String) -> [String] {
        let characters = Array(token)
        return (0...(characters.count - 8)).map { String(characters[$0..<($0 + 8)]) }.filter { text.contains($0) }
    }

    @Test func throughATelegramSinkWrittenAsAURL() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("POST", "/bot\(Self.token)/sendMessage") { request in
            if request.bodyText.contains("@nobody") {
                return .json(#"{"ok":false,"error_code":400,"description":"Bad Request: chat not found for bot \#(Self.token)"}"#, status: 400)
            }
            return .json(#"{"ok":true,"result":{"message_id":7}}"#)
        }
        let directory = try TemporaryDirectory()
        try directory.write("telegram.url", "tgram://\(Self.token)/42\n")
        try directory.write("telegram.token", Self.token + "\n")
        try directory.write("prices.csv", "symbol,time,price\nAAPL,2024-10-02,225.70\n")
        try directory.write("rules.d/a.toml", "[[rule]]\nid = \"aapl-200\"\nsymbol = \"AAPL\"\nabove = 200\n")
        try directory.write("pricewatch.toml", """
            state = "state/pricewatch.db"
            [providers.replay]
            type = "replay"
            file = "prices.csv"
            [sinks.phone]
            url = { file = "telegram.url" }
            api_url = "\(server.baseURL)"
            [sinks.nobody]
            type = "telegram"
            token = { file = "telegram.token" }
            chat = "@nobody"
            api_url = "\(server.baseURL)"
            """)
        _ = try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: directory.file("telegram.url"))
        _ = try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: directory.file("telegram.token"))

        let check = try await CommandRunner.run(["check", "--config", "pricewatch.toml"], in: directory.path)
        #expect(check.status == 0, "\(check.standardError)")
        #expect(Self.leaked(check.standardOutput + check.standardError).isEmpty)

        let sent = try await CommandRunner.run(["notify-test", "--config", "pricewatch.toml", "phone"], in: directory.path)
        #expect(sent.status == 0, "\(sent.standardError)")
        #expect(sent.outputLines.count == 1)
        #expect(sent.outputLines.first?.hasPrefix("sent through telegram/phone (alert id ") == true, "\(sent.outputLines)")
        let request = try #require(server.requests.first)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
        #expect(body["chat_id"] as? Int == 42)
        #expect((body["text"] as? String)?.contains("pricewatch test notification through telegram/phone") == true)

        let refused = try await CommandRunner.run(["notify-test", "--config", "pricewatch.toml", "nobody"], in: directory.path)
        #expect(refused.status == 1)
        #expect(refused.errorLines.count == 1)
        #expect(refused.errorLines.first?.contains("answered HTTP 400: Bad Request: chat not found for bot") == true, "\(refused.errorLines)")
        #expect(Self.leaked(refused.standardOutput + refused.standardError).isEmpty, "\(refused.standardError)")
        #expect(server.requests.count == 2, "sent once each, never retried")
    }
}
